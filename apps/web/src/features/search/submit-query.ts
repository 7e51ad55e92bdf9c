import { createEffect, createSignal, type Accessor } from 'solid-js'
import type { ListLoading } from '../../lib/cursor-list'

export interface SubmitOptions {
  /** What is in the box, and the query the results on screen belong to (or are loading for). */
  typed: Accessor<string>
  searched: Accessor<string>
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
 * (first) result opens when it arrives. Typing again cancels that.
 */
export function createSubmit(options: SubmitOptions) {
  const [pending, setPending] = createSignal<'sent' | 'loading' | null>(null)
  createEffect(() => {
    const state = pending()
    const loading = options.loading()
    if (state === 'sent' && loading === 'initial') setPending('loading')
    else if (state === 'loading' && loading === false) {
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
      setPending(current ? 'loading' : 'sent')
      if (!current) options.search(options.typed())
    },
    cancel: () => setPending(null),
  }
}
