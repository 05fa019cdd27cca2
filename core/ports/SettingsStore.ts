import { Context, type Effect, type Option } from "effect"

/** Host-wide settings that must survive restarts and be shared by replicas (e.g. the JWT key). */
export class SettingsStore extends Context.Service<SettingsStore, {
  readonly get: (key: string) => Effect.Effect<Option.Option<string>>
  /** Stores `value` unless the key exists, and answers the stored value (first writer wins). */
  readonly putIfAbsent: (key: string, value: string) => Effect.Effect<string>
  /** Removes the key if it holds `value` (a setting replaced by another, e.g. sealed). */
  readonly removeIf: (key: string, value: string) => Effect.Effect<void>
}>()("core/ports/SettingsStore") {}
