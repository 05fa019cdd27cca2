/**
 * CLABE (Clave Bancaria Estandarizada), Mexico's 18-digit account number: 3 digits of bank,
 * 3 of branch (plaza), 11 of account, 1 check digit. The check digit: weights 3, 7, 1 repeating
 * over the first 17 digits, each product taken mod 10, summed; check = (10 - sum mod 10) mod 10.
 */
const weights = [3, 7, 1]

export const checkDigit = (first17: string): number => {
  let sum = 0
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * weights[i % 3]!) % 10
  return (10 - (sum % 10)) % 10
}

export const isValidClabe = (clabe: string): boolean =>
  /^\d{18}$/.test(clabe) && checkDigit(clabe.slice(0, 17)) === Number(clabe[17])

/** A CLABE from its bank, branch and 11-digit account number. */
export const makeClabe = (bank: string, branch: string, account: string): string => {
  const first17 = `${bank}${branch}${account}`
  if (!/^\d{17}$/.test(first17)) throw new Error("bank (3), branch (3) and account (11) must be digits")
  return first17 + String(checkDigit(first17))
}
