/**
 * Verification of the Amazon SNS messages Circle's notifications arrive in, as AWS documents it
 * (https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message.html and
 * https://docs.aws.amazon.com/sns/latest/dg/sns-verify-signature-of-message-verify-message-signature.html):
 *
 * 1. `SigningCertURL` must be trusted before anything is fetched: by default an
 *    `https://sns.<region>.amazonaws.com/...pem` URL (AWS: "the certificate should come from an
 *    SNS-signed URL", "always retrieve the signing certificate using HTTPS"); with
 *    `certUrlPrefix` set (a simulator, a proxy), a URL starting with that prefix instead.
 * 2. The certificate (PEM, X.509) is fetched through the connector's `HttpClient` and kept by URL;
 *    its RSA public key (the `subjectPublicKeyInfo`) is read from the DER.
 * 3. The string to sign is built from the envelope's fields (`Wire.stringToSign`).
 * 4. `Signature` (base64) is RSASSA-PKCS1-v1_5 over that string with SHA-1 when
 *    `SignatureVersion` is `1`, with SHA-256 when it is `2`; any other version is refused.
 * 5. When a topic is configured, a message of another `TopicArn` is refused (AWS: "reject any
 *    message with an unexpected TopicArn").
 *
 * What is not done: the certificate's chain of trust up to a root CA (WebCrypto cannot; the
 * trust rests on fetching over HTTPS from an SNS host only, as AWS's own message validators do).
 * Nothing here throws: anything unreadable is "not verified", with the reason.
 */
import { Duration, Effect, Layer, Option, Result, Schema } from "effect"
import { Digest, KeyFormat, SecureRandom, Signature } from "effect/crypto"
import { Base64 } from "effect/encoding"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as Wire from "./Wire.ts"

/** AWS's SNS hosts: `sns.<region>.amazonaws.com` (and `.com.cn` in China). */
const snsHost = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/

/** How many certificates are kept (SNS signs with one at a time; rotation adds one). */
const maxCachedCertificates = 16

export interface SnsOptions {
  /** Trusted prefix of `SigningCertURL` instead of AWS's pattern (`SNS_CERT_URL_PREFIX`). */
  readonly certUrlPrefix?: string | undefined
  /** The only `TopicArn` accepted (`SNS_TOPIC_ARN`); any when undefined. */
  readonly topicArn?: string | undefined
  readonly timeoutMs: number
}

export type Verdict =
  | { readonly _tag: "Verified"; readonly envelope: Wire.SnsEnvelope }
  | { readonly _tag: "Refused"; readonly reason: string }

export interface SnsVerifier {
  readonly verify: (rawBody: string) => Effect.Effect<Verdict>
  /** Whether `url` may be fetched as this envelope's `SubscribeURL` (same trust as certificates). */
  readonly trustedSubscribeUrl: (url: string) => boolean
}

const decodeEnvelope = Schema.decodeUnknownOption(Schema.fromJsonString(Wire.SnsEnvelope))
const encoder = new TextEncoder()

/** Whether `text` is a URL the connector may fetch a certificate from. */
export const trustedCertUrl = (text: string, prefix: string | undefined): boolean => {
  const url = parseUrl(text)
  if (url === undefined || url.username !== "" || url.password !== "") return false
  if (prefix !== undefined && prefix !== "") return underPrefix(url, prefix)
  return url.protocol === "https:" && snsHost.test(url.hostname) && url.port === "" && url.pathname.endsWith(".pem")
}

const trustedSnsUrl = (text: string, prefix: string | undefined): boolean => {
  const url = parseUrl(text)
  if (url === undefined || url.username !== "" || url.password !== "") return false
  if (prefix !== undefined && prefix !== "") {
    const trusted = parseUrl(prefix)
    return trusted !== undefined && url.origin === trusted.origin
  }
  return url.protocol === "https:" && snsHost.test(url.hostname) && url.port === ""
}

/** Same origin as `prefix`, and a path under its path (URLs compared parsed, never as text). */
const underPrefix = (url: URL, prefix: string): boolean => {
  const trusted = parseUrl(prefix)
  return trusted !== undefined && url.origin === trusted.origin && url.pathname.startsWith(trusted.pathname) &&
    !url.pathname.split("/").includes("..")
}

const parseUrl = (text: string): URL | undefined => {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** One DER element: its tag, where its header starts, where its content starts and ends. */
interface Der {
  readonly tag: number
  readonly start: number
  readonly contentStart: number
  readonly end: number
}

const readDer = (bytes: Uint8Array, at: number, limit: number): Der | undefined => {
  if (at + 2 > limit) return undefined
  const tag = bytes[at]!
  let length = bytes[at + 1]!
  let contentStart = at + 2
  if (length >= 0x80) {
    const count = length & 0x7f
    if (count === 0 || count > 4 || contentStart + count > limit) return undefined
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + bytes[contentStart + i]!
    contentStart += count
  }
  const end = contentStart + length
  return end > limit ? undefined : { tag, start: at, contentStart, end }
}

/** The children of a constructed DER element. */
const childrenOf = (bytes: Uint8Array, parent: Der): ReadonlyArray<Der> | undefined => {
  const children: Array<Der> = []
  for (let at = parent.contentStart; at < parent.end;) {
    const child = readDer(bytes, at, parent.end)
    if (child === undefined) return undefined
    children.push(child)
    at = child.end
  }
  return children
}

/**
 * The `subjectPublicKeyInfo` (DER) of an X.509 certificate (RFC 5280 4.1: `Certificate ::=
 * SEQUENCE { tbsCertificate SEQUENCE { [0] version OPTIONAL, serialNumber, signature, issuer,
 * validity, subject, subjectPublicKeyInfo, ... }, ... }`).
 */
export const spkiOfCertificate = (der: Uint8Array): Uint8Array | undefined => {
  const certificate = readDer(der, 0, der.length)
  if (certificate === undefined || certificate.tag !== 0x30) return undefined
  const tbs = childrenOf(der, certificate)?.[0]
  if (tbs === undefined || tbs.tag !== 0x30) return undefined
  const fields = childrenOf(der, tbs)
  if (fields === undefined) return undefined
  const rest = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields
  const spki = rest[5]
  return spki === undefined || spki.tag !== 0x30 ? undefined : der.slice(spki.start, spki.end)
}

/** The DER of the first `CERTIFICATE` block of a PEM text. */
export const derOfPem = (pem: string): Uint8Array | undefined => {
  const match = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/.exec(pem)
  if (match === null) return undefined
  const bytes = Base64.decode(match[1]!.replace(/\s+/g, ""))
  return Result.isSuccess(bytes) ? bytes.success : undefined
}

const algorithms = {
  "1": Signature.rsaPkcs1v15({ hash: Digest.sha1, modulusLength: 2048 }),
  "2": Signature.rsaPkcs1v15({ hash: Digest.sha256, modulusLength: 2048 })
} as const

export const make = (options: SnsOptions): Effect.Effect<SnsVerifier, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const signature = yield* Signature.Signature.pipe(
      Effect.provide(Signature.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)))
    )
    const certificates = new Map<string, Uint8Array>()
    const refused = (reason: string): Verdict => ({ _tag: "Refused", reason })

    /** The certificate's public key (SPKI), fetched once per URL. */
    const spkiOf = (url: string) =>
      Effect.gen(function*() {
        const known = certificates.get(url)
        if (known !== undefined) return Option.some(known)
        const text = yield* http.execute(HttpClientRequest.get(url)).pipe(
          Effect.flatMap((response) => response.status === 200 ? response.text : Effect.succeed("")),
          Effect.timeout(Duration.millis(options.timeoutMs)),
          Effect.orElseSucceed(() => "")
        )
        const der = derOfPem(text)
        const spki = der === undefined ? undefined : spkiOfCertificate(der)
        if (spki === undefined) return Option.none<Uint8Array>()
        if (certificates.size >= maxCachedCertificates) certificates.delete(certificates.keys().next().value!)
        certificates.set(url, spki)
        return Option.some(spki)
      })

    const verify: SnsVerifier["verify"] = (rawBody) =>
      Effect.gen(function*() {
        const parsed = decodeEnvelope(rawBody)
        if (Option.isNone(parsed)) return refused("not an SNS message")
        const envelope = parsed.value
        const version = envelope.SignatureVersion
        if (version !== "1" && version !== "2") return refused(`unsupported SignatureVersion`)
        if (!trustedCertUrl(envelope.SigningCertURL, options.certUrlPrefix)) return refused("untrusted SigningCertURL")
        if (options.topicArn !== undefined && options.topicArn !== "" && envelope.TopicArn !== options.topicArn) {
          return refused("unexpected TopicArn")
        }
        const text = Wire.stringToSign(envelope)
        if (text === undefined) return refused(`unsigned message type`)
        const bytes = Base64.decode(envelope.Signature)
        if (Result.isFailure(bytes) || bytes.success.length === 0) return refused("unreadable Signature")
        const spki = yield* spkiOf(envelope.SigningCertURL)
        if (Option.isNone(spki)) return refused("signing certificate unavailable")
        const key = yield* KeyFormat.decodePublic(KeyFormat.spki, algorithms[version], spki.value).pipe(Effect.option)
        if (Option.isNone(key)) return refused("signing certificate unreadable")
        const valid = yield* signature.verify(key.value, bytes.success, encoder.encode(text)).pipe(Effect.orElseSucceed(() => false))
        return valid ? { _tag: "Verified", envelope } satisfies Verdict : refused("bad signature")
      }).pipe(Effect.catchDefect(() => Effect.succeed(refused("unreadable message"))))

    return {
      verify,
      trustedSubscribeUrl: (url) => trustedSnsUrl(url, options.certUrlPrefix)
    } satisfies SnsVerifier
  })
