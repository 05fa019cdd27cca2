/**
 * Migrations 0001 to 0012: tenancy and auth, pay-ins, checkout, webhooks, deposit accounts,
 * claims, payouts, withdrawals, idempotency, sandbox clocks and rate limits.
 */
import { statements } from "./Statements.ts"

export const foundation = {
  "0001_tenancy_and_auth": statements(
    `CREATE TABLE merchants (
      id text PRIMARY KEY,
      name text NOT NULL,
      email text NOT NULL,
      industry text NOT NULL,
      tier text NOT NULL CHECK (tier IN ('starter', 'standard', 'premium')),
      trust_score integer NOT NULL CHECK (trust_score BETWEEN 0 AND 1000),
      created_at timestamptz NOT NULL
    )`,
    `CREATE TABLE shops (
      id text PRIMARY KEY,
      merchant_id text NOT NULL REFERENCES merchants (id),
      name text NOT NULL,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX shops_by_merchant ON shops (merchant_id, created_at)`,
    `CREATE TABLE credentials (
      id text PRIMARY KEY,
      merchant_id text NOT NULL REFERENCES merchants (id),
      shop_id text REFERENCES shops (id),
      environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
      publishable_key text NOT NULL UNIQUE,
      secret_hash text NOT NULL UNIQUE,
      secret_last4 text NOT NULL,
      version integer NOT NULL CHECK (version > 0),
      revoked_at timestamptz,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX credentials_active_by_merchant ON credentials (merchant_id) WHERE revoked_at IS NULL`,
    `CREATE TABLE refresh_tokens (
      id text PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      family_id text NOT NULL,
      credential_id text NOT NULL REFERENCES credentials (id),
      credential_version integer NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family_id)`,
    `CREATE TABLE settings (
      key text PRIMARY KEY,
      value text NOT NULL
    )`,
    `CREATE TABLE idempotency_keys (
      scope text NOT NULL,
      key text NOT NULL,
      request_hash text NOT NULL,
      state text NOT NULL CHECK (state IN ('in_progress', 'completed')),
      response_status integer,
      response_body text,
      locked_until timestamptz NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (scope, key)
    )`,
    `CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at)`,
    `CREATE TABLE jobs (
      id text PRIMARY KEY,
      kind text NOT NULL,
      payload jsonb NOT NULL,
      run_at timestamptz NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      status text NOT NULL CHECK (status IN ('pending', 'done', 'dead')),
      locked_until timestamptz,
      last_error text,
      dedupe_key text UNIQUE,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX jobs_due ON jobs (run_at) WHERE status = 'pending'`
  ),
  "0002_payins": statements(
    `CREATE TABLE fx_rates (
      currency text PRIMARY KEY,
      per_usd numeric NOT NULL CHECK (per_usd > 0),
      enabled boolean NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    `CREATE TABLE journal_entries (
      id text PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      kind text NOT NULL,
      reference text NOT NULL,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX journal_entries_by_shop ON journal_entries (environment, shop_id, created_at DESC, id DESC)`,
    `CREATE TABLE postings (
      entry_id text NOT NULL REFERENCES journal_entries (id),
      seq integer NOT NULL,
      book text NOT NULL,
      currency text NOT NULL,
      amount numeric NOT NULL,
      PRIMARY KEY (entry_id, seq)
    )`,
    // The cached balance of each account, updated in the transaction of each entry. The check
    // constraint is the guard: a guarded book can never hold a negative balance.
    `CREATE TABLE account_balances (
      environment text NOT NULL,
      shop_id text NOT NULL,
      book text NOT NULL,
      currency text NOT NULL,
      guarded boolean NOT NULL,
      balance numeric NOT NULL,
      PRIMARY KEY (environment, shop_id, book, currency),
      CONSTRAINT guarded_balance_not_negative CHECK (NOT guarded OR balance >= 0)
    )`,
    `CREATE TABLE payments (
      id text PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      status text NOT NULL,
      payment_method_id text NOT NULL,
      method text NOT NULL,
      country text NOT NULL,
      merchant_order_id text,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      data jsonb NOT NULL
    )`,
    `CREATE INDEX payments_by_shop ON payments (environment, shop_id, created_at DESC, id DESC)`,
    `CREATE INDEX payments_by_order ON payments (environment, shop_id, merchant_order_id) WHERE merchant_order_id IS NOT NULL`,
    `CREATE INDEX payments_pending ON payments (created_at) WHERE status = 'pending'`,
    `CREATE TABLE outbox (
      id text PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      related_tx_id text,
      created_at timestamptz NOT NULL
    )`,
    `CREATE INDEX outbox_by_shop ON outbox (environment, shop_id, created_at)`,
    `CREATE TABLE provider_routes (
      environment text NOT NULL,
      shop_id text NOT NULL REFERENCES shops (id),
      provider_id text NOT NULL,
      priority integer NOT NULL,
      method_ids jsonb,
      enabled boolean NOT NULL,
      PRIMARY KEY (environment, shop_id, provider_id)
    )`
  ),
  "0003_checkout_sessions": statements(
    `CREATE TABLE checkout_sessions (
      token text PRIMARY KEY,
      id text NOT NULL,
      environment text NOT NULL,
      shop_id text NOT NULL,
      version integer NOT NULL,
      expires_at timestamptz NOT NULL,
      data jsonb NOT NULL
    )`,
    `CREATE INDEX checkout_sessions_by_id ON checkout_sessions (id)`
  ),
  "0004_webhooks": statements(
    `CREATE TABLE webhooks (
      id text PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      url text NOT NULL,
      managed boolean NOT NULL,
      events jsonb NOT NULL,
      active boolean NOT NULL,
      description text,
      secret text NOT NULL,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      disabled_reason text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`,
    `CREATE INDEX webhooks_by_shop ON webhooks (environment, shop_id, created_at DESC)`,
    `CREATE TABLE webhook_deliveries (
      id text PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      webhook_id text NOT NULL,
      event_id text NOT NULL,
      event text NOT NULL,
      body text NOT NULL,
      related_tx_id text,
      status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'dead_letter')),
      attempts integer NOT NULL,
      last_status_code integer,
      last_error text,
      next_attempt_at timestamptz,
      succeeded_at timestamptz,
      locked_until timestamptz,
      created_at timestamptz NOT NULL,
      UNIQUE (webhook_id, event_id)
    )`,
    `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'failed')`,
    `CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, created_at DESC)`,
    `CREATE TABLE webhook_inbox (
      id text PRIMARY KEY,
      webhook_id text NOT NULL,
      delivery_id text,
      event text,
      body text NOT NULL,
      signature_valid boolean NOT NULL,
      received_at timestamptz NOT NULL
    )`,
    `CREATE INDEX webhook_inbox_by_webhook ON webhook_inbox (webhook_id, received_at DESC)`
  ),
  "0005_deposit_accounts": statements(
    `CREATE TABLE deposit_settings (
      environment text NOT NULL,
      shop_id text NOT NULL REFERENCES shops (id),
      deposit_method_ids jsonb NOT NULL,
      require_phone boolean NOT NULL,
      PRIMARY KEY (environment, shop_id)
    )`,
    // One account per end user and shop, and every CLABE once: unique indexes decide races.
    `CREATE TABLE deposit_accounts (
      id text PRIMARY KEY,
      environment text NOT NULL,
      merchant_id text NOT NULL,
      shop_id text NOT NULL,
      end_user_ref text NOT NULL,
      deposit_method_id text NOT NULL,
      clabe text NOT NULL UNIQUE,
      bank text,
      currency text NOT NULL,
      country text NOT NULL,
      method_name text NOT NULL,
      name text NOT NULL,
      email text NOT NULL,
      phone text,
      document_type text,
      document_id text,
      customer_country text,
      metadata jsonb NOT NULL,
      status text NOT NULL CHECK (status IN ('active', 'disabled')),
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT deposit_accounts_one_per_user UNIQUE (environment, shop_id, end_user_ref)
    )`,
    `CREATE INDEX deposit_accounts_by_shop ON deposit_accounts (environment, shop_id, created_at DESC, id DESC)`,
    `CREATE TABLE deposits (
      id text PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      account_id text NOT NULL REFERENCES deposit_accounts (id),
      deposit_method_id text NOT NULL,
      tracking_key text NOT NULL,
      amount numeric NOT NULL,
      currency text NOT NULL,
      payer_name text NOT NULL,
      payer_bank text,
      payer_account text,
      status text NOT NULL CHECK (status IN ('credited', 'rejected')),
      rejection_reason text,
      transaction_id text,
      amount_usd numeric,
      received_at timestamptz NOT NULL,
      CONSTRAINT deposits_once_per_transfer UNIQUE (deposit_method_id, tracking_key)
    )`,
    `CREATE INDEX deposits_by_account ON deposits (account_id, received_at DESC)`
  ),
  "0006_claims": statements(
    `CREATE TABLE claims (
      id text PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      transaction_id text NOT NULL,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      data jsonb NOT NULL
    )`,
    `CREATE INDEX claims_by_payment ON claims (transaction_id, created_at)`
  ),
  "0007_payouts": statements(
    `CREATE TABLE payouts (
      id text PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      status text NOT NULL,
      method_id text NOT NULL,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      data jsonb NOT NULL
    )`,
    `CREATE INDEX payouts_by_shop ON payouts (environment, shop_id, created_at DESC, id DESC)`
  ),
  "0008_withdrawals": statements(
    `CREATE TABLE withdrawals (
      id text PRIMARY KEY,
      environment text NOT NULL,
      shop_id text NOT NULL,
      status text NOT NULL,
      version integer NOT NULL,
      created_at timestamptz NOT NULL,
      data jsonb NOT NULL
    )`,
    `CREATE INDEX withdrawals_by_shop ON withdrawals (environment, shop_id, created_at DESC, id DESC)`
  ),
  // An Idempotency-Key is bound to the record its execution wrote ahead (write-ahead).
  "0009_idempotency_resources": statements(
    `ALTER TABLE idempotency_keys ADD COLUMN resource_id text`
  ),
  // Sandbox test clocks: each shop's offset, the clock a job runs on, and indexes for
  // what is due on a clock that runs ahead (by shop, then due time).
  "0010_sandbox_clocks": statements(
    `CREATE TABLE sandbox_clocks (
      shop_id text PRIMARY KEY,
      offset_ms bigint NOT NULL CHECK (offset_ms >= 0),
      updated_at timestamptz NOT NULL
    )`,
    `ALTER TABLE jobs ADD COLUMN clock_scope text`,
    `CREATE INDEX jobs_scoped_due ON jobs (clock_scope, run_at) WHERE status = 'pending' AND clock_scope IS NOT NULL`,
    `CREATE INDEX webhook_deliveries_sandbox_due ON webhook_deliveries (shop_id, next_attempt_at)
      WHERE status IN ('pending', 'failed') AND environment = 'sandbox'`,
    `CREATE INDEX payments_pending_sandbox ON payments (shop_id, created_at) WHERE status = 'pending' AND environment = 'sandbox'`
  ),
  // Rate-limit counters of rate-limiter-flexible's PostgreSQL store (its own upsert), shared by
  // replicas.
  "0011_rate_limits": statements(
    `CREATE TABLE rate_limits (
      key text PRIMARY KEY,
      points integer NOT NULL DEFAULT 0,
      expire double precision
    )`
  ),
  // Webhooks of a credential covering every shop of its merchant receive all their events.
  "0012_webhooks_covering_merchant": statements(
    `ALTER TABLE webhooks ADD COLUMN covers_merchant_id text`,
    `CREATE INDEX webhooks_covering_merchant ON webhooks (covers_merchant_id) WHERE covers_merchant_id IS NOT NULL`
  ),
}
