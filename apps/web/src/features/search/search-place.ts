import { createEffect, untrack, type Accessor } from 'solid-js'
import type { ListLoading } from '../../lib/cursor-list'

/** At most this many results are loaded again to restore a place. */
const PLACE_MAX = 300
const STATE_KEY = 'loupeSearchPlace'

/** Where a person was in a result list: the opened result, and how many results were loaded. */
interface Place {
  /** The search page's query string when the hit opened: the place is for that search only. */
  search: string
  index: number
  loaded: number
}

const isPlace = (value: unknown): value is Place => {
  const p = value as Place | null
  return !!p && typeof p.search === 'string' && Number.isInteger(p.index) && p.index >= 0 && Number.isInteger(p.loaded)
}

/**
 * Keep the place in the search page's own history entry before a hit opens: invisible in the URL
 * (a copied or ctrl-clicked link stays the plain search) and still there after Back, Forward, Back.
 */
export function rememberPlace(index: number, loaded: number): void {
  const place: Place = { search: window.location.search, index, loaded }
  window.history.replaceState({ ...window.history.state, [STATE_KEY]: place }, '')
}

export interface PlaceRestore {
  /** The list's identity (query and filters): a change means the person moved on. */
  key: Accessor<string>
  count: Accessor<number>
  answered: Accessor<boolean>
  loading: Accessor<ListLoading>
  failed: Accessor<boolean>
  hasMore: Accessor<boolean>
  loadMore: () => void
  select: (index: number) => void
}

/**
 * Back to a search page whose entry holds a place: load as many results as there were, select the
 * one that was opened and scroll it into view. It gives up on an error or once the query or the
 * filters change, so it never pages through another search.
 */
export function restorePlace(options: PlaceRestore): void {
  const place: unknown = window.history.state?.[STATE_KEY]
  if (!isPlace(place) || place.search !== window.location.search) return
  const want = Math.min(PLACE_MAX, Math.max(place.loaded, place.index + 1))
  const key = untrack(options.key)
  let active = true
  createEffect(() => {
    if (!active) return
    if (options.key() !== key || options.failed()) {
      active = false
      return
    }
    if (!options.answered() || options.loading() !== false) return
    if (options.count() < want && options.hasMore()) return options.loadMore()
    active = false
    if (place.index < options.count()) {
      options.select(place.index)
      setTimeout(() => document.querySelector(`.hit[data-index="${place.index}"]`)?.scrollIntoView({ block: 'center' }), 0)
    }
  })
}
