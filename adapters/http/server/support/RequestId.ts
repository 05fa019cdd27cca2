import { Context } from "effect"

/** The id of the request being answered (also sent back as `X-Request-Id`). */
export class RequestId extends Context.Service<RequestId, string>()("adapters/http/RequestId") {}
