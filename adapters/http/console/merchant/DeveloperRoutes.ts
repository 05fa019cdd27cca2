/** The webhooks, developers and team pages, in the order their paths must be matched. */
import type { ConsoleRoute } from "../Page.ts"
import { deliveryRoutes } from "./Deliveries.ts"
import { developerEventRoutes } from "./DeveloperEvents.ts"
import { developerRoutes } from "./Developers.ts"
import { webhookEndpointRoutes } from "./WebhookEndpoint.ts"
import { webhookRoutes } from "./Webhooks.ts"
import { teamRoutes } from "./Team.ts"
import { auditLogRoutes } from "./AuditLog.ts"

export const developerAreaRoutes: ReadonlyArray<ConsoleRoute> = [
  ...webhookRoutes,
  ...webhookEndpointRoutes,
  ...deliveryRoutes,
  ...developerRoutes,
  ...developerEventRoutes,
  ...auditLogRoutes,
  ...teamRoutes
]
