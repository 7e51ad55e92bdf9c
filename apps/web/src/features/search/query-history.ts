import { createEffect, on, type Accessor } from 'solid-js'

/** A search on screen this long is one a person may want Back to. */
export const SETTLED_MS = 2000

/**
 * Whether the next query replaces the current history entry. While a query is being typed it
 * does (an entry per pause in typing would make Back useless); once a search has been on screen
 * for SETTLED_MS the next one gets an entry of its own, so Back steps through the searches a
 * person read. From the empty page it always replaces: there is nothing to come back to.
 */
export function createQueryHistory(shown: Accessor<string>, hasQuery: Accessor<boolean>, now: () => number = Date.now) {
  let since = now()
  createEffect(on(shown, () => (since = now()), { defer: true }))
  return { replace: () => !hasQuery() || now() - since < SETTLED_MS }
}
