import { hasPositiveTerm, parseQuery } from '@loupe/domain'
import { createSignal } from 'solid-js'

/** How many searches the welcome offers again. */
export const MAX_RECENT = 8
const KEY = 'loupe.recentSearches'
/** Longer queries (pasted text) are not worth offering again. */
const MAX_RECENT_CHARS = 200

type Store = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

/** The browser's storage, or none where it is blocked (a private window may throw on access). */
export function browserStore(): Store | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

/** The searches that led somewhere, newest first; whatever else the key holds reads as none. */
export function recentSearches(store: Store | null): string[] {
  try {
    const value: unknown = JSON.parse(store?.getItem(KEY) ?? '[]')
    return Array.isArray(value) ? value.filter((q): q is string => typeof q === 'string').slice(0, MAX_RECENT) : []
  } catch {
    return []
  }
}

/**
 * Remember a search that opened a result. The same words in another case or spacing replace the
 * older entry; a query that selects nothing, or a pasted page of text, is not kept.
 */
export function rememberSearch(store: Store | null, query: string): string[] {
  const text = query.trim().replace(/\s+/g, ' ')
  if (!store || !text || text.length > MAX_RECENT_CHARS || !hasPositiveTerm(parseQuery(text))) return recentSearches(store)
  const same = (q: string) => q.toLocaleLowerCase() === text.toLocaleLowerCase()
  const next = [text, ...recentSearches(store).filter((q) => !same(q))].slice(0, MAX_RECENT)
  try {
    store.setItem(KEY, JSON.stringify(next))
  } catch {
    // Storage full or blocked: the list is a convenience, searching goes on without it.
  }
  return next
}

export function forgetSearches(store: Store | null): void {
  try {
    store?.removeItem(KEY)
  } catch {
    // As above.
  }
}

/** The recent searches as a signal, for a page that offers them and adds to them. */
export function createRecentSearches(store: Store | null = browserStore()) {
  const [list, setList] = createSignal(recentSearches(store))
  return {
    list,
    remember: (query: string) => setList(rememberSearch(store, query)),
    forget: () => {
      forgetSearches(store)
      setList([])
    },
  }
}
