/**
 * Mid rates the engine starts with, as units of the currency per 1 USD. Operators replace them
 * through the admin API (`PUT /admin/v1/fx-rates/{currency}`); a production deployment feeds
 * them from a market source through the same store.
 */
export const defaultRatesPerUsd: Readonly<Record<string, string>> = {
  USD: "1",
  BRL: "5.40",
  MXN: "18.50",
  COP: "4100",
  PEN: "3.75",
  CLP: "950",
  ARS: "1050",
  UYU: "40.5",
  EUR: "0.92",
  GBP: "0.79",
  CAD: "1.37"
}
