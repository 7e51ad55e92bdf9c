import { useBeforeLeave, useLocation, useNavigate } from '@solidjs/router'
import { createContext, createEffect, createSignal, useContext, type Accessor } from 'solid-js'

/** The results a session was opened from. */
interface SearchOrigin {
  href: string
  sessionID: string
  /** The router's `_depth` stamp on the results' browser history entry; a memory history has none that moves. */
  depth: number | undefined
}

export interface SearchMemory {
  /** The last search's address, query and filters included; `/search` before any. */
  href: Accessor<string>
  /** The search page about to open at `href` was asked for again (`/`, the Search link); undefined forgets it. */
  noteReopen: (href: string | undefined) => void
  /** Whether the search page now showing was asked for again, so its box selects the query; asked once. */
  takeReopened: () => boolean
  /** Back to the results `sessionID` was opened from; false when it was not opened from results. */
  backFrom: (sessionID: string) => boolean
}

const sessionIn = (path: string): string | undefined => {
  const id = /^\/sessions\/([^/?#]+)/.exec(path)?.[1]
  return id === undefined ? undefined : decodeURIComponent(id)
}

const historyDepth = (): number | undefined => {
  const depth: unknown = (window.history.state as { _depth?: unknown } | null)?._depth
  return typeof depth === 'number' ? depth : undefined
}

/** The last search's address with new words: `q` first, spelled as the typeahead always has. */
export function withQuery(href: string, text: string): string {
  const rest = new URLSearchParams(href.split('?')[1] ?? '')
  rest.delete('q')
  const tail = rest.toString()
  return `/search?q=${encodeURIComponent(text)}${tail ? `&${tail}` : ''}`
}

/**
 * Remembers, in memory for this tab, the last search and which session a search opened, so that
 * `/` and the Search link reopen it and Esc in that session goes back to it. Call under the router.
 */
export function createSearchMemory(): SearchMemory {
  const location = useLocation()
  const navigate = useNavigate()
  const [href, setHref] = createSignal('/search')
  const [origin, setOrigin] = createSignal<SearchOrigin>()
  let reopenAt: string | undefined
  createEffect(() => {
    if (location.pathname === '/search') setHref(`/search${location.search}`)
  })
  // Runs before the router moves, while the entry being left is still the current one: its depth
  // is the results' own. History moves (Back, Forward) and replacements keep the entries as they are.
  useBeforeLeave((event) => {
    if (typeof event.to !== 'string' || event.options?.replace) return
    const to = sessionIn(event.to)
    if (to === undefined) return
    if (event.from.pathname === '/search') setOrigin({ href: `/search${event.from.search}`, sessionID: to, depth: historyDepth() })
    // Reached again from anywhere but its own tabs, the session was not opened from these results.
    else if (origin()?.sessionID === to && sessionIn(event.from.pathname) !== to) setOrigin(undefined)
  })
  return {
    href,
    noteReopen: (at) => {
      if (location.pathname !== '/search') reopenAt = at
    },
    takeReopened: () => {
      const reopened = reopenAt === `/search${location.search}`
      reopenAt = undefined
      return reopened
    },
    backFrom: (sessionID) => {
      const from = origin()
      if (from?.sessionID !== sessionID) return false
      const now = historyDepth()
      const steps = now !== undefined && from.depth !== undefined ? now - from.depth : 0
      // The results' own entry holds their place (the opened result, how many were loaded).
      if (steps >= 1) navigate(-steps)
      else navigate(from.href)
      return true
    },
  }
}

export const SearchMemoryContext = createContext<SearchMemory>()

export function useSearchMemory(): SearchMemory {
  return useContext(SearchMemoryContext) ?? { href: () => '/search', noteReopen: () => {}, takeReopened: () => false, backFrom: () => false }
}
