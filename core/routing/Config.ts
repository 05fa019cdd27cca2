/**
 * A shop's routing configuration in one environment: the strategy, and ordered rules whose
 * conditions are on the payment (country, payment method id or slug, local currency, USD amount
 * range, tags) and which select an ordered provider list or a weighted volume split; an optional
 * default. The first rule that matches decides; with none (and no default) the shop's routes
 * (`PUT /admin/v1/shops/{id}/routes/{providerId}`) do.
 *
 * Card conditions (`brands`, `bins`, `installments`) hold only for a payment charged with a card
 * token: the brand and BIN are the vault's description of it. A BIN range is a prefix of the
 * card's BIN, or a range `from`-`to` of equal lengths compared on that many first digits. The
 * issuer's country is not a condition: the engine has no BIN table to know it from. Installments
 * are not on payments yet: until they are, a card payment counts as one instalment.
 */
import { BigDecimal, Schema } from "effect"
import { CardBrand } from "../ports/CardVault.ts"
import type { StrategyName } from "./Strategy.ts"

const Id = Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9_.:-]{1,64}$/)))
const List = Schema.Array(Schema.String.pipe(Schema.check(Schema.isMaxLength(64)))).pipe(Schema.check(Schema.isMaxLength(100)))

export const Split = Schema.Array(Schema.Struct({
  provider: Id,
  weight: Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 1000 })))
})).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(20)))

/** What a rule or the default selects: an ordered list, or a weighted split (exactly one). */
export const Selection = Schema.Struct({
  providers: Schema.optional(Schema.Array(Id).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(20)))),
  split: Schema.optional(Split)
})

const BinDigits = Schema.String.pipe(Schema.check(Schema.isPattern(/^[0-9]{1,8}$/)))

/** A BIN range: the card's BIN starts with `prefix`, or its first digits (as many as `from` has) are within [from, to]. */
export const BinRange = Schema.Union([
  Schema.Struct({ prefix: BinDigits.annotate({ description: "1 to 8 digits the card's BIN starts with" }) }),
  Schema.Struct({
    from: BinDigits.annotate({ description: "Lowest BIN prefix, 1 to 8 digits" }),
    to: BinDigits.annotate({ description: "Highest BIN prefix, as many digits as from, not below it" })
  })
])
export type BinRange = typeof BinRange.Type

const InstallmentCount = Schema.Int.pipe(Schema.check(Schema.isBetween({ minimum: 1, maximum: 99 })))

export const Condition = Schema.Struct({
  /** ISO-2 countries of the rail. */
  countries: Schema.optional(List),
  paymentMethodIds: Schema.optional(List),
  /** Method slugs (`pix`, `spei`, ...). */
  methods: Schema.optional(List),
  /** The rail's local currency. */
  currencies: Schema.optional(List),
  amountUsd: Schema.optional(Schema.Struct({ min: Schema.optional(Schema.Finite), max: Schema.optional(Schema.Finite) })),
  tags: Schema.optional(Schema.Struct({ tag1: Schema.optional(List), tag2: Schema.optional(List), tag3: Schema.optional(List) })),
  /** Card payments only: the card's brand, as the vault names it. */
  brands: Schema.optional(Schema.Array(CardBrand).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(20)))),
  /** Card payments only: the card's BIN within one of these ranges. */
  bins: Schema.optional(Schema.Array(BinRange).pipe(Schema.check(Schema.isMinLength(1), Schema.isMaxLength(100)))),
  /** Card payments only: the instalment count within [min, max] (both inclusive); a payment without installments counts 1. */
  installments: Schema.optional(Schema.Struct({ min: Schema.optional(InstallmentCount), max: Schema.optional(InstallmentCount) }))
})

export const Rule = Schema.Struct({ id: Id, when: Condition, ...Selection.fields })

export const Strategy = Schema.Literals(["static", "health", "success_rate"])

export const RoutingConfig = Schema.Struct({
  strategy: Strategy,
  rules: Schema.Array(Rule).pipe(Schema.check(Schema.isMaxLength(100))),
  default: Schema.optional(Selection)
})
export type RoutingConfig = typeof RoutingConfig.Type
export type Rule = typeof Rule.Type
export type Selection = typeof Selection.Type

/** The payment's facts the conditions look at. */
export interface Facts {
  readonly country: string
  readonly paymentMethodId: string
  readonly method: string
  readonly currency: string
  /** Compared exactly, as decimals: a payment at a rule's bound is on the right side of it. */
  readonly amountUsd: BigDecimal.BigDecimal
  readonly tags: { readonly tag1?: string | null | undefined; readonly tag2?: string | null | undefined; readonly tag3?: string | null | undefined }
  /** The card a card payment is charged with (the vault's description); absent otherwise. */
  readonly card?: { readonly brand: string; readonly bin: string } | undefined
  /** The instalment count, once payments carry one; absent counts 1. */
  readonly installments?: number | undefined
}

/** Whether a BIN is within a range (a validated one: `from` and `to` of equal lengths). */
export const binWithin = (range: BinRange, bin: string) =>
  "prefix" in range
    ? bin.startsWith(range.prefix)
    : bin.length >= range.from.length && bin.slice(0, range.from.length) >= range.from && bin.slice(0, range.to.length) <= range.to

/** Whether a condition names the card (its brand, BIN or installments), so that only card payments match it. */
export const onCard = (when: Rule["when"]) => when.brands !== undefined || when.bins !== undefined || when.installments !== undefined

const cardMatches = (when: Rule["when"], facts: Facts) => {
  if (!onCard(when)) return true
  const card = facts.card
  if (card === undefined) return false
  const count = facts.installments ?? 1
  return (when.brands === undefined || when.brands.some((b) => b === card.brand)) &&
    (when.bins === undefined || when.bins.some((r) => binWithin(r, card.bin))) &&
    (when.installments?.min === undefined || count >= when.installments.min) &&
    (when.installments?.max === undefined || count <= when.installments.max)
}

const within = (list: ReadonlyArray<string> | undefined, value: string | null | undefined) =>
  list === undefined || (value !== null && value !== undefined && list.some((x) => x.toLowerCase() === value.toLowerCase()))

export const matches = (when: Rule["when"], facts: Facts) =>
  within(when.countries, facts.country) &&
  within(when.paymentMethodIds, facts.paymentMethodId) &&
  within(when.methods, facts.method) &&
  within(when.currencies, facts.currency) &&
  (when.amountUsd?.min === undefined || BigDecimal.isGreaterThanOrEqualTo(facts.amountUsd, BigDecimal.fromNumberUnsafe(when.amountUsd.min))) &&
  (when.amountUsd?.max === undefined || BigDecimal.isLessThan(facts.amountUsd, BigDecimal.fromNumberUnsafe(when.amountUsd.max))) &&
  within(when.tags?.tag1, facts.tags.tag1) &&
  within(when.tags?.tag2, facts.tags.tag2) &&
  within(when.tags?.tag3, facts.tags.tag3) &&
  cardMatches(when, facts)

export interface Selected {
  /** The rule that matched, `default`, or null when the shop's routes decide. */
  readonly ruleId: string | null
  /** Providers in order; a split puts the weighted draw first, then the rest by weight. */
  readonly providers: ReadonlyArray<string> | null
  readonly strategy: StrategyName
}

/** The providers a payment may use, in order, before the strategy orders them. */
export const select = (config: RoutingConfig | undefined, facts: Facts, uniform: () => number): Selected => {
  const strategy = config?.strategy ?? "health"
  if (config === undefined) return { ruleId: null, providers: null, strategy }
  const rule = config.rules.find((r) => matches(r.when, facts))
  const chosen: { readonly id: string; readonly selection: Selection } | undefined = rule !== undefined
    ? { id: rule.id, selection: rule }
    : config.default !== undefined
    ? { id: "default", selection: config.default }
    : undefined
  if (chosen === undefined) return { ruleId: null, providers: null, strategy }
  return { ruleId: chosen.id, providers: ordered(chosen.selection, uniform), strategy }
}

const ordered = (selection: Selection, uniform: () => number): ReadonlyArray<string> => {
  if (selection.split === undefined) return selection.providers ?? []
  const total = selection.split.reduce((sum, s) => sum + s.weight, 0)
  let draw = uniform() * total
  const first = selection.split.find((s) => (draw -= s.weight) < 0) ?? selection.split[0]!
  const rest = selection.split.filter((s) => s !== first).sort((a, b) => b.weight - a.weight)
  return [first.provider, ...rest.map((s) => s.provider)]
}

/** Every provider a configuration names, with where (for validation messages). */
export const namedProviders = (config: RoutingConfig) => {
  const named: Array<{ readonly path: string; readonly provider: string; readonly rule: Rule | undefined }> = []
  const collect = (selection: Selection, at: string, rule: Rule | undefined) => {
    selection.providers?.forEach((provider, j) => named.push({ path: `${at}.providers[${j}]`, provider, rule }))
    selection.split?.forEach((s, j) => named.push({ path: `${at}.split[${j}].provider`, provider: s.provider, rule }))
  }
  config.rules.forEach((rule, i) => collect(rule, `rules[${i}]`, rule))
  if (config.default !== undefined) collect(config.default, "default", undefined)
  return named
}
