/**
 * How dLocal's simulators check and make signatures, with `node:crypto`, independently of the
 * connector's `Signing.ts`: `V2-HMAC-SHA256, Signature: <hex HMAC-SHA256(secret, login + date + body)>`.
 * Test tooling, never imported by a plugin.
 */
import { createHmac } from "node:crypto"
import type { SimulatorRequest } from "../kit/SimulatorServer.ts"

export interface SimulatorCredentials {
  readonly login: string
  readonly transKey: string
  readonly secretKey: string
}

export const authorizationOf = (credentials: Pick<SimulatorCredentials, "login" | "secretKey">, date: string, body: string) =>
  `V2-HMAC-SHA256, Signature: ${createHmac("sha256", credentials.secretKey).update(`${credentials.login}${date}${body}`).digest("hex")}`

/** Whether the request carries this account's login, key, a date and a valid signature of its body. */
export const isSigned = (credentials: SimulatorCredentials, req: SimulatorRequest) => {
  const date = req.headers["x-date"] ?? ""
  return req.headers["x-login"] === credentials.login &&
    req.headers["x-trans-key"] === credentials.transKey &&
    date !== "" &&
    req.headers["authorization"] === authorizationOf(credentials, date, req.body)
}

/** The headers of a notification of `body`, dated `date` (now by default). */
export const notificationHeaders = (credentials: Pick<SimulatorCredentials, "login" | "secretKey">, body: string, date = new Date().toISOString()) => ({
  "content-type": "application/json",
  "x-date": date,
  authorization: authorizationOf(credentials, date, body)
})

/**
 * The amount exactly as a JSON body wrote it (`"amount":150.5`, or `"amount": 100.00` with the
 * spaces dLocal's own examples put there).
 */
export const amountTextOf = (raw: string) => /"amount"\s*:\s*(-?\d+(?:\.\d+)?)\s*[,}]/.exec(raw)?.[1]
