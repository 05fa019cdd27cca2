/**
 * The deepest offset a list answers (spec 8). Past any list's end a page is empty anyway; the
 * bound keeps a number such as `1e308` (a finite number, and an integer) from reaching SQL, where
 * `OFFSET 1e+308` is not a bigint.
 */
export const maxOffset = 1_000_000_000

/**
 * Offset paging (spec 8): limit clamped to [1, max] (default 50), offset to [0, maxOffset]
 * (default 0), both truncated to integers; out-of-range values are clamped silently.
 */
export const clampPage = (query: { readonly limit?: number | undefined; readonly offset?: number | undefined }, max = 100) => ({
  limit: Math.min(max, Math.max(1, Math.trunc(query.limit ?? 50))),
  offset: Math.min(maxOffset, Math.max(0, Math.trunc(query.offset ?? 0)))
})

export const pagination = (total: number, page: { readonly limit: number; readonly offset: number }) => ({
  total,
  limit: page.limit,
  offset: page.offset,
  pages: Math.ceil(total / page.limit)
})
