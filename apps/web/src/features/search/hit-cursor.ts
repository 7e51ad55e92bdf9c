import type { Accessor } from 'solid-js'
import { groupedOrder } from './hit-model'
import type { SearchHit } from './search.data'

export interface HitCursorOptions {
  hits: Accessor<SearchHit[]>
  /** Where each "load more" began: grouped view lays later hits out below earlier ones. */
  moreFrom: Accessor<number[]>
  view: Accessor<'sessions' | 'flat'>
  selected: Accessor<number>
  select: (index: number) => void
  loadMore: () => void
}

/** Rows from the end at which moving down asks for the next page, so it is there on arrival. */
const PREFETCH_ROWS = 4

/**
 * Moving the keyboard selection through the hits in the order they stand on screen (grouped
 * view differs from rank order), scrolling the row into view; near the end, more are loaded.
 */
export function createHitCursor(options: HitCursorOptions): (delta: number) => void {
  const order = () => (options.view() === 'sessions' ? groupedOrder(options.hits(), options.moreFrom()) : options.hits().map((_, i) => i))
  return (delta) => {
    const list = order()
    if (!list.length) return
    const at = Math.max(0, Math.min(list.length - 1, list.indexOf(options.selected()) + delta))
    options.select(list[at]!)
    document.querySelector(`.hit[data-index="${list[at]}"]`)?.scrollIntoView({ block: 'nearest' })
    if (at >= list.length - PREFETCH_ROWS) options.loadMore()
  }
}
