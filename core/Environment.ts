import { Schema } from "effect"

/** The two environments; every stored row carries one, and a credential sees only its own. */
export const Environment = Schema.Literals(["sandbox", "production"])
export type Environment = typeof Environment.Type

export const environments: ReadonlyArray<Environment> = ["sandbox", "production"]
