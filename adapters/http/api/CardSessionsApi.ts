/** Card sessions: what a merchant's server tokenizes a card with at the card vault. */
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { secretKey, withErrors } from "./EndpointErrors.ts"
import { IsoDateTime, NoFields } from "./Fields.ts"
import { SecretKey } from "./Security.ts"

export const CardSessionView = Schema.Struct({
  vaultUrl: Schema.String.annotate({ description: "The card vault's base URL: tokenize with `POST {vaultUrl}/v1/cards`" }),
  token: Schema.String.annotate({ description: "The session, an HS256 JWT: send it to the vault as `Authorization: Bearer <token>`. Scoped to your merchant, for tokenizing only" }),
  expiresAt: IsoDateTime.annotate({ description: "15 minutes after it was issued" })
}).annotate({ identifier: "CardSession" })

export class CardSessionsApi extends HttpApiGroup.make("cardSessions")
  .add(
    HttpApiEndpoint.post("create", "/card-sessions", { payload: NoFields, success: CardSessionView }).annotate(
      OpenApi.Description,
      "A session to tokenize a card at the card vault: your server (or the page it serves) sends the card number, expiry, security code and " +
        "holder name to `POST {vaultUrl}/v1/cards` with the session as its bearer, and the vault answers a `card_...` token for your merchant. " +
        "Charge it with `card: { token }` on POST /payments. The card's number never reaches this API. The vault holds the security code " +
        "in memory for 10 minutes, for the first payment that charges the token (every acquirer its cascade tries, and the authorization " +
        "after 3-D Secure); a later payment with the token has none. A host with no card vault answers 422 card_vault_not_configured."
    )
  )
  .middleware(SecretKey)
  .annotate(OpenApi.Title, "Card sessions")
  .pipe(withErrors({
    create: [...secretKey, "card_vault_not_configured"]
  }))
{}
