/**
 * The audit log's retention (`EngineConfig.auditRetentionDays`): once a day, a job deletes every
 * chain's entries older than the retention, each chain keeping a checkpoint signed with the host's
 * key (its last deleted entry's place and hash), where verification then starts. One job per UTC
 * day whatever the number of replicas (its dedupe key). Without a retention, entries are kept.
 */
import { Clock, DateTime, Effect, Layer } from "effect"
import { EngineConfig } from "../EngineConfig.ts"
import { Jobs } from "../jobs/Jobs.ts"
import { Audit } from "./Audit.ts"

export const JobKinds = { prune: "audit.prune" } as const

const day = 24 * 3600 * 1000

export const AuditRetention = {
  layer: Layer.effectDiscard(Effect.gen(function*() {
    const config = yield* EngineConfig
    const days = config.auditRetentionDays
    if (days === undefined) return
    const jobs = yield* Jobs
    const audit = yield* Audit
    let proposed = -1
    yield* jobs.onTick(Effect.gen(function*() {
      const today = Math.floor((yield* Clock.currentTimeMillis) / day)
      if (today === proposed) return
      yield* jobs.enqueue(JobKinds.prune, {}, { dedupeKey: `${JobKinds.prune}:${today}` })
      proposed = today
    }))
    yield* jobs.handle(JobKinds.prune, () =>
      Effect.gen(function*() {
        const before = DateTime.subtract(yield* DateTime.now, { days })
        const deleted = yield* audit.prune(before)
        if (deleted > 0) yield* Effect.logInfo(`audit retention: ${deleted} entries older than ${DateTime.formatIso(before)} deleted, each chain checkpointed`)
      }))
  }))
}
