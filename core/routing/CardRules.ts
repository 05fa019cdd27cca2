/**
 * The checks of a routing configuration's card conditions (`brands`, `bins`, `installments` in
 * `Config.ts`) that a schema cannot make: a BIN range must have `from` and `to` of equal lengths,
 * `from` not above `to`; an instalment range its min not above its max; and a rule with card
 * conditions must be able to match some card rail of its brands. Each problem is an issue naming
 * its field, answered `422 routing_rule_invalid`. Also the facts of a catalog rail as a rule's
 * conditions see them (`railFacts`), with which the configuration's checks ask what a rule can match.
 */
import type { Issue } from "../ApiError.ts"
import type { PaymentMethodDef } from "../catalog/PaymentMethod.ts"
import { paymentMethods } from "../catalog/methods.ts"
import * as Money from "../Money.ts"
import { railBrand } from "../catalog/CardRails.ts"
import { type Facts, matches, onCard, type Rule, type RoutingConfig } from "./Config.ts"

/** A rail's facts for a rule's rail conditions (country, ids, slug, currency); amount and tags aside. */
export const railFacts = (m: PaymentMethodDef): Facts => ({
  country: m.country,
  paymentMethodId: m.id,
  method: m.method,
  currency: m.currencies[0] ?? "",
  amountUsd: Money.zero,
  tags: {}
})

/** A rule's conditions on the rail alone: what `matches` asks of a rail, without the payment's amount, tags or card. */
export const railConditions = (when: Rule["when"]): Rule["when"] => ({
  ...when,
  amountUsd: undefined,
  tags: undefined,
  brands: undefined,
  bins: undefined,
  installments: undefined
})

/** Whether a rail can carry a payment a rule's card conditions match: a card rail (of one of its brands, when it names them). */
export const cardRailFits = (when: Rule["when"], m: PaymentMethodDef) => {
  if (!onCard(when)) return true
  if (m.channel !== "CREDIT_CARD") return false
  const brand = railBrand(m)
  return when.brands === undefined || brand === undefined || when.brands.includes(brand)
}

/** Every card condition of the configuration that can never hold, with its path. */
export const cardRuleIssues = (config: RoutingConfig): ReadonlyArray<Issue> => {
  const issues: Array<Issue> = []
  config.rules.forEach((rule, i) => {
    const at = `rules[${i}].when`
    rule.when.bins?.forEach((range, j) => {
      if (!("from" in range)) return
      if (range.from.length !== range.to.length) {
        issues.push({ path: `${at}.bins[${j}]`, message: `from (${range.from}) and to (${range.to}) must have as many digits` })
      } else if (range.from > range.to) {
        issues.push({ path: `${at}.bins[${j}]`, message: `from (${range.from}) is above to (${range.to})` })
      }
    })
    const count = rule.when.installments
    if (count?.min !== undefined && count.max !== undefined && count.min > count.max) {
      issues.push({ path: `${at}.installments`, message: `min (${count.min}) is above max (${count.max})` })
    }
    if (onCard(rule.when) && !paymentMethods.some((m) => !m.sandboxOnly && matches(railConditions(rule.when), railFacts(m)) && cardRailFits(rule.when, m))) {
      issues.push({ path: at, message: `Rule '${rule.id}' has card conditions but matches no card payment method${rule.when.brands === undefined ? "" : ` of brand ${rule.when.brands.join(", ")}`}` })
    }
  })
  return issues
}
