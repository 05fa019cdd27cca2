/**
 * A connector's status map: the statuses its provider documents, as a literal tuple, mapped by a
 * `Record` over that tuple (so a status added to the tuple without a mapping does not compile).
 * `statusOf` reads a status off the wire through it; a status the provider has not documented
 * (or a missing one) is the fallback the connector gives, never a success. Each connector's README
 * lists the same map in its "Status map" section (checked by test/providers/StatusTables.test.ts).
 */
export const statusOf = <K extends string, V>(
  map: Readonly<Record<K, V>>,
  status: string | null | undefined,
  fallback: V
): V => status !== null && status !== undefined && Object.hasOwn(map, status) ? map[status as K] : fallback
