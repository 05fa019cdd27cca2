/**
 * The simulator's Amazon SNS: an RSA key pair, a self-signed X.509 certificate for it (DER built
 * here, signed with sha256WithRSAEncryption), and messages signed as SNS signs them
 * (https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message-verify-message-signature.html),
 * with `node:crypto`, independently of the connector's `Sns.ts`. Test tooling, never imported by
 * the plugin.
 */
import { Effect, type Scope } from "effect"
import { createSign, generateKeyPairSync, type KeyObject, randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

const length = (n: number): Buffer => {
  if (n < 0x80) return Buffer.from([n])
  const bytes: Array<number> = []
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}
const tlv = (tag: number, ...content: ReadonlyArray<Buffer>) => {
  const body = Buffer.concat(content)
  return Buffer.concat([Buffer.from([tag]), length(body.length), body])
}
const sequence = (...content: ReadonlyArray<Buffer>) => tlv(0x30, ...content)
const sha256WithRsa = sequence(Buffer.from("06092a864886f70d01010b", "hex"), Buffer.from("0500", "hex"))
const name = (cn: string) => sequence(tlv(0x31, sequence(Buffer.from("0603550403", "hex"), tlv(0x0c, Buffer.from(cn, "utf8")))))

/** A self-signed X.509 v3 certificate (DER) of `publicKey`, as PEM. */
export const selfSignedCertificate = (publicKey: KeyObject, privateKey: KeyObject, cn: string): string => {
  const tbs = sequence(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, Buffer.from([0x01, 0x5e, 0xa7])),
    sha256WithRsa,
    name(cn),
    sequence(tlv(0x17, Buffer.from("200101000000Z")), tlv(0x17, Buffer.from("491231235959Z"))),
    name(cn),
    publicKey.export({ type: "spki", format: "der" })
  )
  const signature = createSign("sha256").update(tbs).sign(privateKey)
  const der = sequence(tbs, sha256WithRsa, tlv(0x03, Buffer.from([0]), signature))
  const lines = der.toString("base64").match(/.{1,64}/g)!.join("\n")
  return `-----BEGIN CERTIFICATE-----\n${lines}\n-----END CERTIFICATE-----\n`
}

export type SignatureVersion = "1" | "2"

export interface SnsSigner {
  readonly certificatePem: string
  readonly publicKey: KeyObject
  /** An SNS message: the fields given, then `SignatureVersion`, `Signature`, `SigningCertURL`. */
  readonly sign: (fields: Readonly<Record<string, string>>, version: SignatureVersion, certUrl: string) => Record<string, string>
}

/** The fields SNS signs, in order, for a message of `type`. */
const signedFields = (fields: Readonly<Record<string, string>>): ReadonlyArray<string> =>
  fields["Type"] === "Notification"
    ? ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"].filter((f) => f !== "Subject" || fields["Subject"] !== undefined)
    : ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"]

export const makeSigner = (): SnsSigner => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const certificatePem = selfSignedCertificate(publicKey, privateKey, "sns.simulator.invalid")
  return {
    certificatePem,
    publicKey,
    sign: (fields, version, certUrl) => {
      const text = signedFields(fields).map((f) => `${f}\n${fields[f] ?? ""}\n`).join("")
      const signature = createSign(version === "1" ? "RSA-SHA1" : "RSA-SHA256").update(text, "utf8").sign(privateKey, "base64")
      return { ...fields, SignatureVersion: version, Signature: signature, SigningCertURL: certUrl }
    }
  }
}

export const messageId = () => randomUUID()

/**
 * SNS's host in miniature, another host than Circle's API: serves the certificate (as PEM text)
 * at `certPath` and the `SubscribeURL` (`/?Action=ConfirmSubscription`); its base URL.
 */
export const serveSns = (
  certificatePem: string,
  certPath: string,
  on: { readonly certificate: () => void; readonly confirmation: () => void }
): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<{ readonly url: string; readonly close: () => void }>((resume) => {
      const sns = createServer((req, res) => {
        const url = new URL(req.url ?? "/", "http://sns")
        if (req.method === "GET" && url.pathname === certPath) {
          on.certificate()
          return void res.writeHead(200, { "content-type": "application/x-pem-file" }).end(certificatePem)
        }
        if (req.method === "GET" && url.pathname === "/" && url.searchParams.get("Action") === "ConfirmSubscription") {
          on.confirmation()
          return void res.writeHead(200, { "content-type": "text/xml" }).end("<ConfirmSubscriptionResponse/>")
        }
        res.writeHead(404).end()
      })
      sns.listen(0, "127.0.0.1", () =>
        resume(Effect.succeed({
          url: `http://127.0.0.1:${(sns.address() as AddressInfo).port}`,
          close: () => {
            sns.close()
            sns.closeAllConnections()
          }
        })))
    }),
    (sns) => Effect.sync(sns.close)
  ).pipe(Effect.map((sns) => sns.url))
