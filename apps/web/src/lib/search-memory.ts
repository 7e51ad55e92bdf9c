import { useBeforeLeave, useNavigate } from '@solidjs/router'
import { createContext, createSignal, useContext } from 'solid-js'

/** The results a session was opened from. */
interface SearchOrigin {
  href: string
  sessionID: string
  /** The router's `_depth` stamp on the results' browser history entry; a memory history has none that moves. */
  depth: number | undefined
}

export interface SearchMemory {
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

/**
 * Remembers, in memory for this tab, which session a search opened, so that Esc in that session
 * goes back to it. Call under the router.
 */
export function createSearchMemory(): SearchMemory {
  const navigate = useNavigate()
  const [origin, setOrigin] = createSignal<SearchOrigin>()
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
  return useContext(SearchMemoryContext) ?? { backFrom: () => false }
}
