import { createEffect, createSignal, type Accessor } from 'solid-js'
import type { ListLoading } from '../../lib/cursor-list'

export interface SubmitOptions {
  /** What is in the box, and the query the results on screen belong to (or are loading for). */
  typed: Accessor<string>
  searched: Accessor<string>
  /** False for text that selects nothing (only exclusions or punctuation): no search will load. */
  selects: (text: string) => boolean
  /** Search for the typed text now (typing is debounced). */
  search: (text: string) => void
  loading: Accessor<ListLoading>
  failed: Accessor<boolean>
  /** Open the selected result. */
  open: () => void
}

/**
 * Enter in the search box acts on the text in the box: results of an earlier query (typing is
 * debounced, a search may be on its way) are never opened; the search runs now and its selected
 * (first) result opens when it arrives, if the query is still that text. Typing again, or a
 * filter change (`cancel`), drops that.
 */
export function createSubmit(options: SubmitOptions) {
  const [pending, setPending] = createSignal<{ text: string; started: boolean } | null>(null)
  createEffect(() => {
    const state = pending()
    const loading = options.loading()
    if (!state) return
    const searching = options.searched().trim() === state.text
    // Before it starts, the URL may not carry the text yet; after, another query means move on.
    if (!state.started) {
      if (searching && loading === 'initial') setPending({ ...state, started: true })
    } else if (!searching) setPending(null)
    else if (loading === false) {
      setPending(null)
      if (!options.failed()) options.open()
    }
  })
  return {
    submit() {
      const text = options.typed().trim()
      if (!text) return
      const current = text === options.searched().trim()
      if (current && options.loading() !== 'initial') return options.open()
      if (!current) options.search(options.typed())
      if (options.selects(text)) setPending({ text, started: current })
    },
    cancel: () => setPending(null),
  }
}
