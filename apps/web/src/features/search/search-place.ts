import { createEffect, type Accessor } from 'solid-js'
import type { ListLoading } from '../../lib/cursor-list'

/** At most this many results are loaded again to restore a place: a shared URL cannot ask for more. */
const PLACE_MAX = 300

/** The place in the URL: the opened result's index and how many results were loaded. */
export interface SearchPlace {
  sel?: string
  n?: string
}

/**
 * Write the place into the search page's own history entry before a hit opens (replaceState: the
 * router keeps its location, which is about to change anyway), so that Back returns to it.
 */
export function rememberPlace(index: number, loaded: number): void {
  const url = new URL(window.location.href)
  url.searchParams.set('sel', String(index))
  url.searchParams.set('n', String(loaded))
  window.history.replaceState(window.history.state, '', url)
}

export interface PlaceRestore {
  place: SearchPlace
  count: Accessor<number>
  answered: Accessor<boolean>
  loading: Accessor<ListLoading>
  hasMore: Accessor<boolean>
  loadMore: () => void
  select: (index: number) => void
  /** The place is restored (or cannot be): take it out of the URL. */
  done: () => void
}

/**
 * Back from an opened result: load as many results as there were, select the one that was opened
 * and scroll it into view.
 */
export function restorePlace(options: PlaceRestore): void {
  const index = Number(options.place.sel)
  if (options.place.sel === undefined && options.place.n === undefined) return
  const want = Math.min(PLACE_MAX, Math.max(Number(options.place.n) || 0, index + 1 || 0))
  let active = true
  createEffect(() => {
    if (!active || !options.answered() || options.loading() !== false) return
    if (options.count() < want && options.hasMore()) return options.loadMore()
    active = false
    if (Number.isInteger(index) && index >= 0 && index < options.count()) {
      options.select(index)
      requestAnimationFrame(() => document.querySelector(`.hit[data-index="${index}"]`)?.scrollIntoView({ block: 'center' }))
    }
    options.done()
  })
}
