/** What the session list can be ordered by: the session's own columns or its stored totals. */
export const SESSION_SORTS = ['updated', 'size', 'eventBytes', 'tokens', 'cost', 'messages'] as const
export type SessionSort = (typeof SESSION_SORTS)[number]

export const SORT_ORDERS = ['asc', 'desc'] as const
export type SortOrder = (typeof SORT_ORDERS)[number]

/** Newest activity first: the list's order when nothing else is asked for. */
export const DEFAULT_SESSION_SORT: { sort: SessionSort; order: SortOrder } = { sort: 'updated', order: 'desc' }

/** `sort` and `order` from a URL or a caller, each falling back to the default when absent or unknown. */
export function parseSessionSort(sort: string | undefined, order: string | undefined): { sort: SessionSort; order: SortOrder } {
  const s = SESSION_SORTS.find((x) => x === sort) ?? DEFAULT_SESSION_SORT.sort
  const o = SORT_ORDERS.find((x) => x === order) ?? DEFAULT_SESSION_SORT.order
  return { sort: s, order: o }
}

/**
 * Order of two sessions under a sort: by value, then id, then generation (a 1.x and a 2.x copy of
 * one id); ascending is exactly the reverse of descending, so a keyset cursor works both ways.
 * @example compareSessionKeys({ value: 5, id: 'b', rank: 0 }, { value: 5, id: 'a', rank: 0 }, 'desc') < 0
 */
export function compareSessionKeys(a: SessionKeyValue, b: SessionKeyValue, order: SortOrder): number {
  const up = a.value - b.value || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) || a.rank - b.rank
  return order === 'asc' ? up : -up
}

/** A session's place under a sort: its sort value, id, and its generation's rank (1.x 0, 2.x 1). */
export interface SessionKeyValue {
  value: number
  id: string
  rank: number
}
