/**
 * Circle's official Node SDK (`@circle-fin/circle-sdk`, the version in package.json) driven
 * against the simulator: `new Circle(apiKey, baseUrl)` takes the base URL as its second argument
 * (`CircleEnvironments.sandbox` in the SDK's README), so it is pointed at the simulator directly.
 * The SDK's own requests must be accepted and its own types must read the answers; the
 * documentation's example bodies (fixtures/circle/docs.ts) are sent verbatim, with their wallet
 * `12345` being the simulator account's wallet.
 */
import { assert, describe, it } from "@effect/vitest"
import { Chain, Circle, type CreateTransferResponse, type GetTransferResponse, type Transfer, TransferErrorCode, TransferStatusEnum } from "@circle-fin/circle-sdk"
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import { CircleSimulator } from "../../providers/circle/CircleSimulator.ts"
import * as Docs from "./fixtures/circle/docs.ts"

const credentials = { apiKey: "SAND_API_KEY:1f2e3d4c5b6a:9a8b7c6d5e4f3a2b", walletId: "12345" }

/** The SDK on a simulator whose address book holds the documentation's ETH address, approved (entered through the SDK); `calls` start empty. */
const sdkOnSimulator = Effect.gen(function*() {
  const sim = yield* CircleSimulator.start(credentials)
  const circle = new Circle(credentials.apiKey, sim.baseUrl)
  yield* sim.setAutoApprove(true)
  yield* sdk(() =>
    circle.addresses.createBusinessRecipientAddress({
      idempotencyKey: randomUUID(),
      address: Docs.createTransferRequest.destination.address,
      chain: Chain.Eth,
      description: "The documentation's address"
    })
  )
  yield* sim.setAutoApprove(false)
  ;(sim.calls as Array<unknown>).length = 0
  return { sim, circle }
})

const sdk = <A>(f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: (e) => e })

/** What axios raised: the HTTP status and Circle's `{ code, message }`. */
const refusal = (e: unknown) => {
  const response = (e as { response?: { status: number; data: { code: number; message: string } } }).response
  return response === undefined ? undefined : { status: response.status, code: response.data.code, message: response.data.message }
}

describe("Circle official SDK against the simulator", () => {
  it.live("the documentation's create-transfer example, sent by the SDK, is created; the SDK's types read it back", () =>
    Effect.gen(function*() {
      const { circle, sim } = yield* sdkOnSimulator
      const created = yield* sdk(() => circle.transfers.createTransfer({ ...Docs.createTransferRequest }))
      assert.strictEqual(created.status, 201)
      const data: Transfer = (created.data as CreateTransferResponse).data!
      assert.strictEqual(data.status, TransferStatusEnum.Pending)
      assert.deepStrictEqual(data.destination, Docs.createTransferRequest.destination)
      assert.deepStrictEqual(data.amount, Docs.createTransferRequest.amount)
      assert.deepStrictEqual(data.source, { type: "wallet", id: "12345" })
      assert.match(data.id, /^[0-9a-f-]{36}$/)
      // Every key of the answer is one the documentation's example answer has.
      for (const key of Object.keys(data)) assert.property(Docs.createTransferResponse.data, key)
      const read = yield* sdk(() => circle.transfers.getTransfer(data.id))
      const got = (read.data as GetTransferResponse).data!
      assert.deepStrictEqual([got.id, got.status, got.amount.amount], [data.id, "pending", "3.14"])
      // The SDK sent the bearer key.
      assert.deepStrictEqual(sim.calls.map((c) => [c.method, c.accepted]), [["POST", true], ["GET", true]])
    }))

  it.live("the travel-rule example (source identities) is accepted too; without its identities Circle denies it (riskEvaluation 3220)", () =>
    Effect.gen(function*() {
      const { circle } = yield* sdkOnSimulator
      const created = yield* sdk(() => circle.transfers.createTransfer(structuredClone(Docs.createTransferRequestTravelRule) as never))
      assert.strictEqual(created.data.data?.amount.amount, "3000.00")
      assert.strictEqual(created.data.data?.status, "pending")
      const bare = { ...Docs.createTransferRequestTravelRule, idempotencyKey: randomUUID(), source: { type: "wallet", id: "12345" } }
      const denied = (yield* sdk(() => circle.transfers.createTransfer(bare as never))).data.data as unknown as Record<string, unknown>
      assert.deepInclude(denied, { status: "failed", errorCode: "transfer_denied", riskEvaluation: { decision: "denied", reason: "3220" } })
    }))

  it.live("the address book through the SDK: an entry waits for the administrator, unlisted until approved; a business transfer names it by addressId", () =>
    Effect.gen(function*() {
      const { circle, sim } = yield* sdkOnSimulator
      const address = "0x3333333333333333333333333333333333333333"
      const created = (yield* sdk(() =>
        circle.addresses.createBusinessRecipientAddress({ idempotencyKey: randomUUID(), address, chain: Chain.Eth, description: "Settlement payouts on ETH" })
      )).data.data!
      assert.deepInclude(created, { address, chain: "ETH", currency: "USD", status: "pending_verification" })
      for (const key of Object.keys(created)) assert.property(Docs.createRecipientResponse.data, key)
      const listed = () => Effect.map(sdk(() => circle.addresses.listBusinessRecipientAddresses()), (r) => r.data.data!.map((e) => e.address))
      assert.notInclude(yield* listed(), address, "pending entries are not listed")
      const body = { idempotencyKey: randomUUID(), destination: { type: "verified_blockchain" as const, addressId: created.id! }, amount: { amount: "12.34", currency: "USD" as const } }
      const early = yield* Effect.flip(sdk(() => circle.transfers.createBusinessTransfer(body as never)))
      assert.deepInclude(refusal(early), { status: 400, code: 2 })
      yield* sim.approveAddress(created.id!)
      assert.include(yield* listed(), address)
      const sent = (yield* sdk(() => circle.transfers.createBusinessTransfer(body as never))).data.data!
      assert.deepStrictEqual([sent.status, sent.destination], ["pending", { type: "blockchain", address, chain: "ETH" }])
      const read = (yield* sdk(() => circle.transfers.getBusinessTransfer(sent.id))).data.data!
      assert.strictEqual(read.id, sent.id)
      assert.strictEqual((yield* sdk(() => circle.addresses.deleteBusinessRecipientAddress(created.id!))).status, 200)
      assert.notInclude(yield* listed(), address)
    }))

  it.live("complete and failed transfers as the SDK reads them: transactionHash, errorCode from the SDK's enum", () =>
    Effect.gen(function*() {
      const { circle, sim } = yield* sdkOnSimulator
      const a = (yield* sdk(() => circle.transfers.createTransfer({ ...Docs.createTransferRequest, idempotencyKey: randomUUID() }))).data.data!
      const b = (yield* sdk(() => circle.transfers.createTransfer({ ...Docs.createTransferRequest, idempotencyKey: randomUUID() }))).data.data!
      yield* sim.complete(a.id, Docs.getTransferResponse.data.transactionHash)
      yield* sim.fail(b.id, TransferErrorCode.BlockchainError)
      const done = (yield* sdk(() => circle.transfers.getTransfer(a.id))).data.data!
      const failed = (yield* sdk(() => circle.transfers.getTransfer(b.id))).data.data!
      assert.deepStrictEqual([done.status, done.transactionHash], [TransferStatusEnum.Complete, Docs.getTransferResponse.data.transactionHash])
      assert.deepStrictEqual([failed.status, failed.errorCode], [TransferStatusEnum.Failed, TransferErrorCode.BlockchainError])
      const listed = (yield* sdk(() => circle.transfers.listTransfers("12345"))).data.data!
      assert.deepStrictEqual(listed.map((t) => t.id), [b.id, a.id])
    }))

  it.live("idempotencyKey: the same request answers the same transfer; another request with that key is 409", () =>
    Effect.gen(function*() {
      const { circle, sim } = yield* sdkOnSimulator
      const request = { ...Docs.createTransferRequest, idempotencyKey: randomUUID() }
      const first = (yield* sdk(() => circle.transfers.createTransfer(request))).data.data!
      const second = (yield* sdk(() => circle.transfers.createTransfer(request))).data.data!
      assert.strictEqual(second.id, first.id)
      assert.strictEqual(sim.transfers.size, 1)
      const other = yield* Effect.flip(sdk(() => circle.transfers.createTransfer({ ...request, amount: { amount: "2.00", currency: "USD" } })))
      assert.deepStrictEqual(refusal(other), { status: 409, code: 409, message: "Conflicts with another request." })
      assert.strictEqual(sim.transfers.size, 1)
    }))

  it.live("refused: no key or another key (401), an unknown chain, a malformed address, a third decimal, a key that is not a UUID v4 (400, code 2)", () =>
    Effect.gen(function*() {
      const { circle, sim } = yield* sdkOnSimulator
      const fresh = () => ({ ...Docs.createTransferRequest, idempotencyKey: randomUUID() })
      for (const key of ["", "SAND_API_KEY:other:other"]) {
        const e = yield* Effect.flip(sdk(() => new Circle(key, sim.baseUrl).transfers.createTransfer(fresh())))
        assert.strictEqual(refusal(e)?.status, 401)
        assert.strictEqual(refusal(e)?.code, 401)
      }
      const cases = [
        [{ ...fresh(), destination: { ...Docs.createTransferRequest.destination, chain: "MATIC" } }, "destination.chain"],
        [{ ...fresh(), destination: { ...Docs.createTransferRequest.destination, address: "0x8381470ED67C3802402dbbFa0058E8871F017A6" } }, "destination.address"],
        [{ ...fresh(), amount: { amount: "3.145", currency: "USD" } }, "amount.amount"],
        [{ ...fresh(), amount: { amount: "0.00", currency: "USD" } }, "amount.amount"],
        [{ ...fresh(), idempotencyKey: "batch-1:circle" }, "idempotencyKey"]
      ] as const
      for (const [body, location] of cases) {
        const e = yield* Effect.flip(sdk(() => circle.transfers.createTransfer(body as never)))
        assert.deepInclude(refusal(e), { status: 400, code: 2 })
        const errors = (e as { response: { data: { errors: ReadonlyArray<{ location: string }> } } }).response.data.errors
        assert.strictEqual(errors[0]?.location, location)
      }
      const missing = yield* Effect.flip(sdk(() => circle.transfers.getTransfer(randomUUID())))
      assert.deepStrictEqual(refusal(missing), { status: 404, code: 404, message: "Not found." })
      assert.strictEqual(sim.transfers.size, 0)
    }))
})
