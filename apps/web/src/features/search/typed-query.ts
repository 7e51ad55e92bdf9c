import { createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js'

/** The pause in typing after which the box's text becomes the searched query. */
export const TYPING_PAUSE_MS = 160

export interface TypedQueryOptions {
  /** The query the URL holds: what the results on screen belong to, or are loading for. */
  searched: Accessor<string | undefined>
  /** Make `text` the searched query (an empty box searches nothing). */
  search: (text: string | undefined) => void
  /** Each keystroke, before its pause starts: what waited on the old text is void now. */
  onEdit: () => void
}

/**
 * The search box's text. It runs ahead of the searched query while typing is debounced, and
 * follows the query when that changes from outside (Back, a link).
 */
export function createTypedQuery(options: TypedQueryOptions) {
  const [typed, setTyped] = createSignal(options.searched() ?? '')
  let timer: ReturnType<typeof setTimeout> | undefined
  const type = (text: string) => {
    setTyped(text)
    options.onEdit()
    clearTimeout(timer)
    timer = setTimeout(() => options.search(text || undefined), TYPING_PAUSE_MS)
  }
  /** Search for `text` now, without waiting for the pause. */
  const searchNow = (text: string) => {
    clearTimeout(timer)
    options.search(text || undefined)
  }
  onCleanup(() => clearTimeout(timer))
  createEffect(on(options.searched, (q) => { if ((q ?? '') !== typed()) setTyped(q ?? '') }, { defer: true }))
  return { typed, type, searchNow }
}
