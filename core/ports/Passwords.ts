import { Context, type Effect } from "effect"

/**
 * Password hashing for team members' sign-in (`core/team/`): a slow, salted hash (the reference
 * adapter is scrypt, `adapters/auth/ScryptPasswords.ts`) and its constant-time check. The
 * password itself is never stored, logged or answered.
 */
export class Passwords extends Context.Service<Passwords, {
  readonly hash: (password: string) => Effect.Effect<string>
  /** Whether `password` is the one `stored` was made from (false for a hash this adapter cannot read). */
  readonly verify: (password: string, stored: string) => Effect.Effect<boolean>
}>()("core/ports/Passwords") {}
