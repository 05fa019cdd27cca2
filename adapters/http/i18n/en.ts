/**
 * The English catalog: every word the buyer's pages and the console show, in English. It defines
 * the key set: the Portuguese and Spanish catalogs are typed `Catalog`, so a word one of them lacks
 * (or one only it has) does not compile. Pages and console modules read their words from here
 * through `Catalogs.ts`; none keeps its own.
 */
import type { Channel } from "../../../core/catalog/Channel.ts"
import type { PaymentStatus } from "../../../core/payments/PaymentState.ts"

/** The sandbox provider's payment form: what a buyer sees at the (simulated) provider. */
export interface SandboxText {
  readonly notice: string
  /** `Payment TXN-… is pending.`: the sentence around the id and the status. */
  readonly paymentIs: (id: string, status: string) => string
  readonly status: Readonly<Record<PaymentStatus, string>>
  readonly pay: string
  readonly fail: string
  readonly notFoundTitle: string
  readonly notFoundBody: string
  readonly badRequest: string
  /** The sandbox's 3-D Secure challenge page (`ThreeDSecurePages.ts`). */
  readonly challengeTitle: string
  readonly challengeBody: string
  readonly authenticate: string
  readonly failAuthentication: string
}

/** The engine's 3-D Secure return page (`ThreeDSecurePages.ts`), when the payment has no return URL. */
export interface ThreeDSecureText {
  readonly title: string
  readonly body: string
  readonly notFoundTitle: string
}

/** The buyer's pages: the checkout (`CheckoutPages.ts`) and the sandbox provider's form. */
export interface PageText {
  readonly channel: Readonly<Record<Channel, string>>
  /** What kind of method it is, to tell apart methods that share a name (a bank's transfer and its debit). */
  readonly kinds: Readonly<Record<"bank_transfer" | "online_debit" | "cash" | "card" | "wallet", string>>
  readonly title: string
  readonly heading: string
  readonly payWith: string
  /** The summary of a group's further methods, folded away on the page. */
  readonly moreMethods: (count: number) => string
  readonly yourDetails: string
  readonly fullName: string
  readonly email: string
  readonly documentId: string
  readonly documentHint: string
  readonly phone: string
  readonly phoneHint: string
  /** The card rails' instalment choice: its label, one payment, and a count of `each` (the first `first`, which takes the cents' remainder). */
  readonly installments: string
  readonly payOnce: (total: string) => string
  readonly payInInstalments: (count: number, each: string, first: string) => string
  readonly installmentsHint: string
  /** The address block, shown only for a method whose providers need the buyer's address. */
  readonly address: string
  readonly street: string
  readonly number: string
  readonly numberHint: string
  readonly complement: string
  readonly district: string
  readonly city: string
  readonly state: string
  readonly postalCode: string
  readonly submit: string
  readonly cancel: string
  readonly noMethodHeading: string
  readonly noMethodBody: string
  readonly expiredTitle: string
  readonly expiredHeading: string
  readonly expiredBody: string
  readonly usedTitle: string
  readonly usedHeading: string
  readonly usedBody: string
  readonly usedContinue: string
  readonly backToShop: string
  /** The sandbox provider's payment form (`SandboxPages.ts`). */
  readonly sandbox: SandboxText
  /** The 3-D Secure return page. */
  readonly threeDSecure: ThreeDSecureText
  /** Messages the page's script shows. */
  readonly script: Readonly<
    Record<
      | "name"
      | "email"
      | "document"
      | "documentInvalid"
      | "phone"
      | "street"
      | "number"
      | "district"
      | "city"
      | "state"
      | "stateCode"
      | "postalCode"
      | "address"
      | "method"
      | "check"
      | "failed"
      | "offline",
      string
    >
  >
}

const pages: PageText = {
  channel: { ONLINE: "Bank transfer and instant payment", CASH: "Cash", CREDIT_CARD: "Card" },
  kinds: { bank_transfer: "bank transfer", online_debit: "online debit", cash: "cash voucher", card: "card", wallet: "wallet" },
  title: "Checkout",
  heading: "Complete your payment",
  payWith: "Pay with",
  moreMethods: (count) => `Show ${count} more`,
  yourDetails: "Your details",
  fullName: "Full name",
  email: "Email",
  documentId: "Identity document number",
  documentHint: "CPF, CURP, RUT, DNI... as the payment method asks",
  phone: "Phone (with country code)",
  phoneHint: "The payment method you chose asks for it",
  installments: "Installments",
  payOnce: (total) => `Pay ${total} at once`,
  payInInstalments: (count, each, first) => first === each ? `${count} × ${each}, no interest` : `${count} × ${each} (first ${first}), no interest`,
  installmentsHint: "For card payments",
  address: "Your address",
  street: "Street",
  number: "Number",
  numberHint: "S/N if the address has none",
  complement: "Apartment, floor, unit (optional)",
  district: "Neighbourhood",
  city: "City",
  state: "State or province",
  postalCode: "Postal code",
  submit: "Continue to payment",
  cancel: "Cancel and go back to the shop",
  noMethodHeading: "No payment method is available",
  noMethodBody: "This shop cannot take payments here right now. Please go back to the shop.",
  expiredTitle: "Checkout link expired",
  expiredHeading: "This checkout link has expired",
  expiredBody: "Checkout links work for 24 hours. Please go back to the shop and start the payment again.",
  usedTitle: "Payment already started",
  usedHeading: "This payment was already started",
  usedBody: "A payment method was already chosen for this checkout.",
  usedContinue: "Continue to the payment",
  backToShop: "Back to the shop",
  sandbox: {
    notice: "Sandbox provider — no real money moves",
    paymentIs: (id, status) => `Payment ${id} is ${status}.`,
    status: { pending: "pending", completed: "completed", failed: "failed", refunded: "refunded", expired: "expired", chargeback: "charged back", authorized: "authorized", voided: "voided" },
    pay: "Pay",
    fail: "Fail the payment",
    notFoundTitle: "Payment not found",
    notFoundBody: "This sandbox payment does not exist.",
    badRequest: "Choose Pay or Fail the payment.",
    challengeTitle: "3-D Secure authentication",
    challengeBody: "Your bank asks you to confirm this card payment. In the sandbox, choose how the authentication ends.",
    authenticate: "Complete authentication",
    failAuthentication: "Fail authentication"
  },
  threeDSecure: {
    title: "Authentication finished",
    body: "Your bank has answered. The shop will confirm your payment; you can close this page.",
    notFoundTitle: "Payment not found"
  },
  script: {
    name: "Enter your first and last name.",
    email: "Enter a valid email address, like name@example.com.",
    document: "Enter your identity document number.",
    documentInvalid: "This document number is not valid for the payment method's country: check its digits.",
    phone: "Enter your phone with its country code, like +5511987654321.",
    street: "Enter your street.",
    number: "Enter the number of the address, or S/N.",
    district: "Enter your neighbourhood.",
    city: "Enter your city.",
    state: "Enter your state or province.",
    stateCode: "Enter the state's two letters, like SP.",
    postalCode: "Enter a valid postal code.",
    address: "The payment method you chose needs your address.",
    method: "Choose a payment method.",
    check: "Please check this field.",
    failed: "The payment could not be started. Please try again.",
    offline: "The connection failed. Please try again."
  }
}

/** The console's words, one entry per page module (`adapters/http/console`). */
const consoleWords = {
  shell: {
    layout: {
      console: "Console", sandbox: "Sandbox", production: "Production", sandboxNote: "Sandbox: test data, no real money",
      productionNote: "Production: real money", switchTo: "Switch to", signOut: "Sign out", operator: "Operator",
      skip: "Skip to content", language: "Language", apply: "Apply", navigation: "Sections",
      payments: "Payments", balances: "Balances", payouts: "Payouts", settlements: "Settlements", webhooks: "Webhooks",
      developers: "Developers", team: "Team", merchants: "Merchants", connectors: "Connectors", routing: "Routing", queues: "Queues",
      fxRates: "FX rates", reconciliation: "Reconciliation"
    },
    page: {
      forbidden: "This form did not come from the console", forbiddenBody: "Nothing was done. Open the page again and repeat the action.",
      notFound: "No such page", notFoundBody: "This page does not exist for this sign-in."
    },
    invitation: {
      title: "Join the team", intro: "Choose a password (12 characters or more) for", password: "Password", next: "Continue",
      enrolTitle: "Set up your authenticator app", enrolIntro: "Add this secret to an authenticator app (any TOTP app: enter it by hand), then type the six-digit code it shows.",
      secret: "Secret", uri: "Or open this link on the phone", code: "Code", confirm: "Confirm", doneTitle: "You are on the team",
      done: "Sign in with your email, your password and a code of your app.", invalid: "This invitation link is not valid or has expired: ask for a new one.",
      signIn: "Sign in"
    },
    signIn: {
      title: "Sign in", merchant: "Merchant",
      sso: "Sign in with your organisation", ssoHint: "If your company signs you in with its identity provider.", ssoTitle: "Continue to your organisation", ssoContinue: "Continue to your organisation's sign-in", rejectedSso: "Single sign-on did not sign you in",
      member: "Team member", memberHint: "Your email, your password and the six-digit code of your authenticator app.", email: "Email", password: "Password",
      code: "Code", environment: "Environment", rejectedMember: "The email, password or code was not accepted", merchantHint: "Use a key pair of the environment you want to see: pk_test_/sk_test_ for sandbox, pk_live_/sk_live_ for production. The keys are exchanged for a session and not kept.",
      publishableKey: "Publishable key", secretKey: "Secret key", signIn: "Sign in", operator: "Operator", adminToken: "Admin token",
      operatorHint: "The host's ADMIN_TOKEN.", rejected: "These keys were not accepted", rejectedAdmin: "This admin token was not accepted",
      switching: "Sign in with a key pair of the environment you are switching to.", sandbox: "sandbox", production: "production",
      foreign: "This form did not come from the console; nothing was done.",
      needsHttps: "The console needs HTTPS (PUBLIC_URL https://…) or a loopback address: browsers keep its Secure session cookie only there."
    }
  },
  merchant: {
    balances: {
      title: "Balances", payin: "Pay-in balance", payout: "Payout balance", currency: "Currency", available: "Available", pending: "Pending",
      frozen: "Frozen", reserve: "Reserve", owed: "Owed", reserved: "Reserved", localNote: "Local currencies show frozen and reserve together, under Reserve.",
      transferable: "Transferable from pay-in", chart: "Available balance, last 30 days", day: "Day", movements: "Recent movements",
      when: "When", type: "Type", reference: "Reference", amount: "Amount", books: "Books", noMovements: "No movements yet.",
      noPayout: "No payout balance yet.", swap: "Swap a local currency to USD", swapped: "Swap done: the USD is in your available balance.",
      warnings: "Warnings", net: "Net balance", unavailable: "The balance could not be read.", fund: "Fund the payout balance",
      movement: "Movement", availableChange: "Available", elsewhere: "Pending, frozen, reserve"
    },
    balanceKinds: {
      "payment.completed": "Payment received", "payment.settled": "Payment settled", "payment.failed": "Payment failed",
      "reserve.released": "Reserve released", "claim.opened": "Refund requested", "claim.resolved": "Refund completed",
      "claim.rejected": "Refund rejected", "refund.completed": "Refund completed", "refund.failed": "Refund failed",
      "chargeback.opened": "Chargeback opened", "chargeback.won": "Chargeback won", "chargeback.lost": "Chargeback lost",
      "balance.swap": "Currency swap", "balance.fund_sandbox": "Sandbox funding", "withdrawal.requested": "Withdrawal requested",
      "withdrawal.completed": "Withdrawal completed", "withdrawal.failed": "Withdrawal failed (returned)", "payout.transfer": "Transfer to payout balance",
      "settlement.closed": "Settlement batch closed", "settlement.failed": "Settlement payout failed (returned)", "deposit.credited": "Deposit credited"
    },
    deliveries: {
      delivery: "Delivery", event: "Event", status: "Status", attempts: "Attempts", created: "Created", next: "Next attempt", succeeded: "Succeeded",
      request: "Request", response: "Response", url: "URL", headers: "Headers", header: "Header", value: "Value", body: "Body",
      statusCode: "Status code", error: "Error", excerpt: "Body (first 1024 characters)", noAnswer: "Not attempted yet.", empty: "(empty)",
      replay: "Replay", replayHint: "Queues this delivery again now, with the same body. One replay per click.", replayButton: "Replay this delivery",
      replayed: "The delivery was queued again; refresh to see its new outcome.", back: "Back to the endpoint", payment: "Payment"
    },
    auditLog: {
      title: "Audit log", hint: "Who changed what in this account, in this environment, newest first: keys, restricted keys, webhooks, connector accounts, the team, and the operator's changes. Each entry is chained to the one before by its hash.",
      when: "When", who: "Who", operation: "Operation", object: "Object", changes: "Changes", show: "Show", none: "No changes recorded yet.",
      newer: "Newer", older: "Older", page: "Pages", back: "Developers", link: "Read the audit log"
    },
    developerEvents: {
      title: "Events", type: "Type", any: "Every type", filter: "Filter", id: "Event", created: "Created", related: "About", json: "JSON",
      show: "Show", none: "No events match.", newer: "Newer", older: "Older", page: "Pages", back: "Developers"
    },
    developers: {
      title: "Developers", keys: "API keys", publishable: "Publishable key", secret: "Secret key", version: "Version", created: "Issued",
      rotate: "Rotate keys", rotateHint: "Revokes this environment's key pair and every token minted from it, and issues a new pair. Every integration using the old keys stops working at once, and you will have to sign in again with the new keys.",
      rotateButton: "Rotate this environment's keys", rotatedTitle: "Keys rotated", newKeys: "Your new keys",
      rotatedOnce: "Copy the secret key now: it is shown only once. The old keys no longer work, and this console session has ended.",
      signInAgain: "Sign in with the new keys", requests: "Recent requests", method: "Method", path: "Path", statusCode: "Status", requestId: "Request id",
      time: "Time", duration: "ms", noRequests: "No API requests yet.", requestsHint: "The last 100 API requests of this shop in this environment.",
      events: "Events", eventsLink: "Browse the events", auditLink: "Read the audit log", clock: "Sandbox test clock", now: "Shop time now", offset: "Ahead of real time",
      advance: "Advance", seconds: "How far", advanceButton: "Advance the clock", advanced: "The sandbox clock moved forward; everything due ran.",
      hour: "1 hour", day: "1 day", week: "7 days", month: "30 days", clockHint: "Moves this shop's sandbox time forward and runs what came due (expiry, settlement, retries). Time never goes back.",
      revoked: "The restricted key was revoked: it no longer works."
    },
    team: {
      title: "Team", hint: "People who sign in as themselves, each with a role. Removing someone or changing their role ends their sessions at once.",
      members: "Members", email: "Email", name: "Name", role: "Role", status: "Status", actions: "Actions", save: "Save role", remove: "Remove",
      none: "No team members yet.", invite: "Invite someone", invited: "invited", active: "active", sent: "Invitation sent to",
      linkTitle: "Invitation link", linkOnce: "This host sends no email: give this link to the person yourself. It is shown only once and works for 72 hours.",
      back: "Back to the team", saved: "Role saved.", removedDone: "Member removed."
    },
    restrictedKeys: {
      title: "Restricted keys", active: "Active restricted keys", hint: "Secret keys that call only the operations their permissions cover (read, or write which includes read). They cannot manage keys.",
      name: "Name", permissions: "Permissions", secret: "Secret key", created: "Created", actions: "Actions", revoke: "Revoke", none: "No restricted keys.",
      noAccess: "None", read: "Read", write: "Write", create: "Create a restricted key", createdTitle: "Restricted key created",
      once: "Copy the secret key now: it is shown only once.", back: "Back to Developers"
    },
    paymentDetail: {
      card: "Card", cardBrand: "Brand", cardNumber: "Number (BIN and last 4)", cardExpiry: "Expires", cardFingerprint: "Fingerprint", cardInstallments: "Installments", firstInstalment: "first",
      payment: "Payment", back: "All payments", summary: "Summary", status: "Status", amountUsd: "Amount (USD)", amountLocal: "Buyer paid",
      method: "Method", country: "Country", order: "Order id", fees: "Fees (USD)", refundable: "Refundable", created: "Created",
      updated: "Updated", completed: "Completed", expires: "Expires", failure: "Failure reason", provider: "Provider",
      timeline: "Life cycle", attempt: "Provider attempt", latency: "latency", rule: "rule", strategy: "strategy", circuit: "circuit",
      score: "score", noRule: "default order", decline: "card decline", event: "Event", delivery: "Webhook delivery", attempts: "attempts", answered: "answered",
      ledgerEntry: "Ledger entry", claim: "Claim", refund: "Refund", claims: "Refunds and claims", noClaims: "No refunds or claims.",
      ledger: "Ledger entries", noLedger: "No ledger entries yet.", kind: "Kind", amount: "Amount", reason: "Reason", when: "When",
      entry: "Entry", type: "Type", reference: "Reference", postings: "Postings", notFound: "No such payment",
      refunded: "Refund requested. It is pending until the provider confirms it.", refundSucceeded: "Refund completed: the provider confirmed it.",
      refundFailed: "The refund failed: the provider did not make it, and nothing was taken.", buyer: "Buyer", buyerEmail: "Buyer email", noDeliveries: "no webhook deliveries", tried: "tried"
    },
    payments: {
      title: "Payments", id: "Payment", status: "Status", amount: "Amount", local: "Buyer paid", method: "Method", created: "Created",
      order: "Order id", buyer: "Buyer", search: "Transaction id or buyer email", none: "No payments match.", filters: "Filters", any: "Any", country: "Country (ISO code)",
      from: "Created from", to: "Created to", amountMin: "Amount from (USD)", amountMax: "Amount to (USD)", apply: "Apply filters",
      clear: "Clear", next: "Next page", first: "First page", paging: "Pages", total: "payments match",
      pending: "Pending", completed: "Completed", failed: "Failed", refunded: "Refunded", expired: "Expired", chargeback: "Chargeback", authorized: "Authorized", voided: "Voided"
    },
    payoutFunding: {
      title: "Fund the payout balance", transfer: "Transfer USD from the pay-in balance", transferable: "Transferable now", amountUsd: "Amount (USD)",
      doTransfer: "Transfer", swap: "Swap payout USD to a local currency", to: "To currency", quote: "Get a quote", doSwap: "Swap now",
      rate: "Rate (units per USD)", receive: "You receive about", indicative: "Indicative quote: the rate is read again when the swap executes.",
      transferred: "Transfer done: the USD is in your payout balance.", swapped: "Swap done: the money is in your payout balance.", back: "Back to balances",
      payoutUsd: "Payout USD available", quoteHeading: "Quote"
    },
    payoutSend: {
      title: "Send a payout", chooseMethod: "Payout method", choose: "Continue", amount: "Amount", recipient: "Beneficiary", send: "Send payout",
      available: "Available", limits: "Limits (USD)", currency: "Currency", noMethods: "No payout method is available.", optional: "optional",
      notRoutable: "Not available here", fundFirst: "Fund the payout balance in this currency first.", change: "Choose another method"
    },
    payouts: {
      title: "Payouts", send: "Send a payout", id: "Payout", status: "Status", amount: "Amount", method: "Method", created: "Created",
      completed: "Completed", none: "No payouts yet.", provider: "Provider", providerRef: "Provider reference", failure: "Failure reason",
      environment: "Environment", sent: "Payout created.", previous: "Previous", next: "Next", back: "Back to payouts", page: "Page", all: "All", filter: "Filter",
      simulate: "Simulate the outcome", simulateHint: "Sandbox only: sandbox payouts wait for this signal, as a provider's answer in production.", outcome: "Outcome",
      apply: "Simulate", simulated: "Outcome simulated."
    },
    refundForm: {
      refund: "Refund", amount: "Amount", remaining: "Refundable now", reason: "Reason (optional)", none: "No reason given",
      requested_by_customer: "Requested by the customer", duplicate: "Duplicate", fraudulent: "Fraudulent", other: "Other",
      submit: "Refund", notRefundable: "Only a completed payment with an amount left can be refunded."
    },
    settlements: {
      title: "Settlements", batch: "Batch", status: "Status", period: "Period", net: "Net", gross: "Gross", closed: "Closed", lines: "Lines",
      none: "No settlement batches: this shop has no settlement schedule, or none has closed yet.", platformFees: "Platform fees", providerFees: "Provider fees", chargebackFees: "Chargeback fees", refunds: "Refunds",
      chargebacks: "Chargebacks", owedRecovered: "Owed recovered", reserveHeld: "Reserve held", reserveReleased: "Reserve released", other: "Other",
      destination: "Destination", payoutRef: "Payout reference", txHash: "Transaction hash", failure: "Failure reason", paidAt: "Paid",
      pdf: "Statement (PDF)", csv: "Statement (CSV)", openNote: "This batch is open: its lines and statement exist from its close on.",
      at: "When", kind: "Kind", transaction: "Transaction", order: "Order", method: "Method", local: "Local amount", usd: "Net (USD)", fees: "Fees", reserve: "Reserve",
      back: "Back to settlements", noLines: "No lines.", downloads: "Statement", previous: "Previous", next: "Next", page: "Page"
    },
    swaps: {
      title: "Swap to USD", from: "From currency", amount: "Amount", amountHint: "In the currency you swap from.", quote: "Get a quote", swap: "Swap now",
      rate: "Rate (USD per unit)", receive: "You receive about", availableNow: "Available now", indicative: "Indicative quote: the rate is read again when the swap executes.",
      nothing: "There is no local currency in your pay-in balance to swap.", back: "Back to balances", quoteHeading: "Quote"
    },
    webhookEndpoint: {
      endpoint: "Endpoint", settings: "Settings", save: "Save", state: "State", on: "Active: receives events", off: "Off: receives nothing",
      danger: "Delete", deleteHint: "Deleting drops its pending deliveries.", deleteButton: "Delete this endpoint",
      secret: "Signing secret", rotateHint: "A new secret; for 24 hours deliveries are also signed (v0) with the old one.", rotate: "Rotate the secret",
      test: "Test", testHint: "Queues one webhook.test delivery to this endpoint only. No money moves.", sendTest: "Send a test event",
      deliveries: "Deliveries", delivery: "Delivery", event: "Event", status: "Status", attempts: "Attempts", answer: "Last answer", created: "Created",
      none: "No deliveries yet.", saved: "Settings saved.", tested: "A test event was queued; it appears below once sent.",
      rotated: "The secret was rotated.", disabledReason: "Turned off by the engine", managed: "Managed inbox", newer: "Newer", older: "Older", page: "Pages"
    },
    webhooks: {
      title: "Webhooks", endpoints: "Endpoints", url: "Endpoint URL", events: "Events", state: "State", created: "Created", description: "Description",
      none: "No endpoints yet.", add: "Add an endpoint", create: "Add endpoint", urlHint: "Where the events are POSTed: an https URL (http in sandbox).",
      eventsHint: "Event types separated by commas, or * for every event.", active: "active", disabled: "disabled",
      secretTitle: "New signing secret", secretOnce: "Copy this secret now: it is shown only once. It verifies the X-Service-Signature header of every delivery.",
      created1: "Endpoint added.", deleted: "Endpoint deleted.", back: "All endpoints", openEndpoint: "Open"
    }
  },
  operator: {
    common: {
      conflict: "This was changed by someone else since you opened it: reload the page to see the current version, then make your change again.",
      previous: "Previous", next: "Next", page: "Page", of: "of", sandbox: "Sandbox", production: "Production", environment: "Environment",
      shown: "Environment shown", noProduction: "production has no connector configured on this host",
      unavailable: "The API did not answer this page's data.",
      already: "This was already resolved (by someone else, or by an earlier click of the same form): nothing more was done."
    },
    connectors: {
      title: "Connectors", instances: "Connector instances", id: "Id", name: "Name", environments: "Environments", none: "No connectors registered.",
      health: "Health per rail", provider: "Provider", rail: "Rail (method id)", circuit: "Circuit", attempts: "Attempts", failures: "Failures", conversion: "Conversion",
      noHealth: "No attempts in this window.", window: "Window (hours)", show: "Show", hour: "Hour (UTC)", conversionChart: "Conversion per hour (%)",
      latencyChart: "Answer latency per hour (ms)", closed: "closed", open: "open", half_open: "half open", p50: "p50", p95: "p95", conversionSeries: "Conversion %", declines: "Card declines"
    },
    depositSettings: {
      title: "Deposit methods", shop: "Shop", methods: "Deposit method ids", methodsHint: "Comma-separated, e.g. mx_spei_stp, mx_spei_arcus; empty: none.",
      phone: "Creating an account needs a phone", yes: "Yes", no: "No", save: "Save", done: "Deposit settings saved.", back: "Back to merchants"
    },
    fxRates: {
      title: "FX rates", currency: "Currency", perUsd: "Units per 1 USD (mid)", enabled: "Enabled", updated: "Updated", none: "No rates set.",
      markup: "Markup on conversions", set: "Set a rate", save: "Save rate", yes: "Yes (in use)", no: "No (withdrawn: conversions refused)", done: "Rate saved.",
      currencyHint: "ISO 4217 code, e.g. BRL", active: "active", withdrawn: "withdrawn"
    },
    merchants: {
      title: "Merchants", merchant: "Merchant", email: "Email", tier: "Tier", created: "Created", shops: "Shops", none: "No merchants yet.",
      create: "New merchant", name: "Name", industry: "Industry (optional)", createButton: "Create merchant", rotate: "Rotate keys",
      routing: "Routing", deposits: "Deposit methods", keysOnce: "Copy these keys now: they are shown once and cannot be shown again.",
      created201: "Merchant created", rotated: "Keys rotated", revoked: "key pairs revoked", sandboxKeys: "Sandbox keys", productionKeys: "Production keys",
      publishable: "Publishable key", secret: "Secret key", shopNames: "Shop names (optional, one per line)", back: "Back to merchants"
    },
    queues: {
      title: "Queues", payouts: "Payouts stuck in processing", chargebacks: "Open chargebacks", withdrawals: "Withdrawals waiting on the bank",
      discrepancies: "Open reconciliation discrepancies", id: "Id (shop)", shop: "Shop", amount: "Amount", created: "Created", method: "Method", provider: "Provider",
      action: "Resolve", resolve: "Resolve", completed: "Completed", failed: "Failed", reason: "Failure reason (if failed)", outcome: "Outcome",
      won: "Won (for the merchant)", lost: "Lost (for the buyer)", payment: "Payment", destination: "Destination", kind: "Kind", detail: "Detail",
      note: "Note", resolvedBy: "Resolved by", writeOff: "Write-off USD (optional)", olderThan: "Processing for at least (minutes)", show: "Show",
      nonePayouts: "No payout is stuck.", noneChargebacks: "No open chargeback.", noneWithdrawals: "No withdrawal is waiting.", noneDiscrepancies: "No open discrepancy.",
      donePayout: "Payout resolved.", doneChargeback: "Chargeback resolved.", doneWithdrawal: "Withdrawal resolved.", doneDiscrepancy: "Discrepancy resolved.",
      total: "total"
    },
    reconciliation: {
      title: "Reconciliation", reports: "Reports imported", report: "Report", provider: "Provider", format: "Format", period: "Period",
      lines: "Lines", matched: "Matched", discrepancies: "Discrepancies", source: "Source", imported: "Imported", allProviders: "All providers",
      show: "Show", none: "No report imported yet.", upload: "Upload a provider's report", file: "Report file",
      fileHint: "The file exactly as the provider sent it (CSV or JSON), up to 32 MiB. The same file again changes nothing.",
      uploadButton: "Upload and match", run: "Fetch a report now", runHint: "For providers with a reports API (Mercado Pago, Pagar.me): the report of the period is fetched and matched, as the daily run does.",
      periodStart: "From (UTC day)", periodEnd: "Until (UTC day, exclusive)", runButton: "Run now", chooseFile: "Choose the report file.",
      tooLarge: "The file is larger than 32 MiB: split the period into smaller reports.", unreadable: "The form's file could not be read: choose it again and send the form again.",
      formats: "This provider's formats"
    },
    reconciliationSources: { upload: "Uploaded", fetch: "Fetched (run)" },
    reconciliationReport: {
      report: "Report", back: "All reports", provider: "Provider", format: "Format", source: "Source", period: "Period", file: "File SHA-256",
      lines: "Lines", matched: "Matched", unmatchable: "Lines about neither a payment nor a refund", imported: "Imported", byKind: "Discrepancies by kind",
      kind: "Kind", count: "Count", clearing: "The provider clearing account explained", clearingRule: "Per currency, for the records this report is about: what the engine expects = what the provider reported + what is still pending at the provider + the discrepancies.",
      currency: "Currency", engineExpects: "Engine expects", providerReported: "Provider reported", pending: "Pending at provider", discrepancyAmount: "In discrepancies",
      clearingUsd: "Booked in provider clearing (USD)", discrepancies: "Discrepancies found", id: "Id", state: "Status", shop: "Shop", detail: "Detail", created: "Found",
      none: "No discrepancy: the provider's report agrees with the engine.", noKinds: "None.", doneImported: "Report imported and matched.",
      doneKnown: "This very file had been imported before: nothing changed.", toQueues: "Resolve open discrepancies in the queues",
      discrepancy: "Discrepancy", providerSide: "The provider's line", engineSide: "The engine's record", line: "Line", providerRef: "Provider reference",
      reference: "Reference", providerStatus: "Provider's status", normalized: "Read as", amount: "Amount", fee: "Fee", occurred: "When",
      record: "Record", moved: "Money moved", feeUsd: "Fee (USD)", movedAt: "Moved at", yes: "Yes", no: "No", noLine: "No line of the report (missing from it).",
      noRecord: "No record of the engine answers this line.", resolution: "Resolution", note: "Note", resolvedBy: "Resolved by", resolvedAt: "Resolved at",
      adjustment: "Adjustment entry", resolve: "Resolve", writeOff: "Write-off USD (optional)", writeOffHint: "Reduces the provider clearing receivable by this amount (negative: the provider owes more); a new journal entry, history is never edited.",
      resolveButton: "Resolve discrepancy"
    },
    routing: {
      title: "Routing", shop: "Shop id", open: "Open", pick: "Enter a shop id (listed on the Merchants page).", routes: "Provider routes",
      provider: "Provider", priority: "Priority", methods: "Payment method ids", enabled: "Enabled", remove: "Remove", none: "No routes: in sandbox the sandbox provider serves every rail.",
      addRoute: "Add or change a route", methodsHint: "Comma-separated; empty: every method the provider supports.", yes: "Yes", no: "No", save: "Save route",
      config: "Routing configuration", version: "Version", strategy: "Strategy", rules: "Rules (JSON)", rulesHint: 'A JSON array: [{"id": "br-pix", "when": {"countries": ["BR"]}, "providers": ["p1", "p2"]}] or with "split": [{"provider": "p1", "weight": 80}].',
      defaultSel: "Default selection (JSON, optional)", defaultHint: 'E.g. {"providers": ["p1"]}; empty: the shop\'s routes.', saveConfig: "Save configuration",
      notJson: "This is not valid JSON", notArray: "Expected a JSON array of rules", notObject: "Expected a JSON object",
      doneRoute: "Route saved.", doneRemoved: "Route removed.", doneConfig: "Routing configuration saved.", never: "never configured",
      static: "static: the candidates' order", health: "health: skip open circuits", success_rate: "success_rate: by recent conversion"
    }
  }
}

export const en = { pages, console: consoleWords }

export type Catalog = typeof en
