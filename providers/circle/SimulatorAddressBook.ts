/**
 * The address book of the Circle simulator (`CircleSimulator.ts`): Circle Mint's recipient
 * addresses, which a business-account transfer must name (`verified_blockchain`, `addressId`).
 * Test tooling, never imported by the plugin.
 *
 * - `POST /v1/businessAccount/wallets/addresses/recipient` `{ idempotencyKey, address, chain,
 *   currency?, description }` -> `200 { data: { id, address, chain, currency, description,
 *   status } }` (the SDK's `BusinessRecipientAddressObject`); a new entry is
 *   `pending_verification` until the account's administrator approves it (`approve(id)`: `active`)
 *   or denies it (`deny(id)`: `denied`), or at once `active` with `setAutoApprove(true)`. Refused
 *   with `400 { code: 2 }` like transfers: a key that is not a UUID v4, an unknown chain, a
 *   malformed address, no description. The same key and body answer the first answer again.
 * - `GET .../recipient` lists the `active` entries only ("any recipient addresses pending
 *   administrator verification are not included in the response"), oldest first, `pageSize`
 *   (at most {@link pageCap}) after `pageAfter` (an unknown one: an empty page);
 *   `DELETE .../recipient/{id}` removes one (`404` unknown).
 */
import { randomUUID } from "node:crypto"
import type { Answer } from "../kit/SimulatorServer.ts"
import * as Wire from "./Wire.ts"

export interface SimulatedRecipient {
  readonly id: string
  readonly address: string
  readonly chain: string
  readonly currency: string
  readonly description: string
  status: string
}

export interface AddressBook {
  readonly recipients: ReadonlyMap<string, SimulatedRecipient>
  readonly create: (input: Record<string, unknown>) => Answer
  /** The `active` entries, oldest first, `pageSize` (at most {@link pageCap}) after `pageAfter`. */
  readonly list: (query: URLSearchParams) => Answer
  readonly remove: (id: string) => Answer
  /** The administrator's decision in the Mint console. */
  readonly decide: (id: string, status: "active" | "denied") => void
  readonly setAutoApprove: (auto: boolean) => void
}

/** The collection's own page limit ("the collection limit will be used"): small, so paging is exercised. */
export const pageCap = 10

export const makeAddressBook = (rules: {
  readonly uuidV4: RegExp
  readonly addressFits: (chain: string, address: string) => boolean
  readonly invalid: (location: string, kind: string, message: string) => Answer
  readonly notFound: Answer
}): AddressBook => {
  const recipients = new Map<string, SimulatedRecipient>()
  let autoApprove = false
  const view = (r: SimulatedRecipient) => ({ id: r.id, address: r.address, chain: r.chain, currency: r.currency, description: r.description, status: r.status })
  return {
    recipients,
    create: (input) => {
      const { address, chain, currency, description, idempotencyKey } = input
      if (typeof idempotencyKey !== "string" || !rules.uuidV4.test(idempotencyKey)) {
        return rules.invalid("idempotencyKey", "pattern_mismatch", "idempotencyKey must be a UUID v4")
      }
      if (typeof chain !== "string" || !(Wire.chains as ReadonlyArray<string>).includes(chain)) {
        return rules.invalid("chain", "invalid_value", `chain must be one of ${Wire.chains.join(", ")}`)
      }
      if (typeof address !== "string" || !rules.addressFits(chain, address)) return rules.invalid("address", "pattern_mismatch", `address is not a ${chain} address`)
      if (typeof description !== "string" || description === "") return rules.invalid("description", "required", "description may not be empty")
      if (currency !== undefined && currency !== "USD" && currency !== "EUR") return rules.invalid("currency", "invalid_value", "currency must be USD or EUR")
      const recipient: SimulatedRecipient = {
        id: randomUUID(),
        address,
        chain,
        currency: typeof currency === "string" ? currency : "USD",
        description,
        status: autoApprove ? "active" : "pending_verification"
      }
      recipients.set(recipient.id, recipient)
      return { status: 200, body: { data: view(recipient) } }
    },
    list: (query) => {
      const active = [...recipients.values()].filter((r) => r.status === "active")
      const after = query.get("pageAfter")
      const from = after === null ? 0 : active.findIndex((r) => r.id === after) + 1
      const size = Math.min(Number(query.get("pageSize") ?? pageCap) || pageCap, pageCap)
      return { status: 200, body: { data: (from === 0 && after !== null ? [] : active.slice(from, from + size)).map(view) } }
    },
    remove: (id) => recipients.delete(id) ? { status: 200, body: {} } : rules.notFound,
    decide: (id, status) => {
      const recipient = recipients.get(id)
      if (recipient === undefined) throw new Error(`simulator: no recipient address '${id}'`)
      recipient.status = status
    },
    setAutoApprove: (auto) => void (autoApprove = auto)
  }
}
