/** Offset paging (spec 8): limit clamped to [1, max] (default 50), offset to >= 0. */
export const clampPage = (query: { readonly limit?: number | undefined; readonly offset?: number | undefined }, max = 100) => ({
  limit: Math.min(max, Math.max(1, Math.trunc(query.limit ?? 50))),
  offset: Math.max(0, Math.trunc(query.offset ?? 0))
})

export const pagination = (total: number, page: { readonly limit: number; readonly offset: number }) => ({
  total,
  limit: page.limit,
  offset: page.offset,
  pages: Math.ceil(total / page.limit)
})
