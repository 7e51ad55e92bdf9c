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

const RESULTS = '.hit-groups, .hit-list'
const rowIndex = (row: Element | undefined) => (row ? Number(row.getAttribute('data-index')) : undefined)

/** The hit a step from a focused element that is not a row (a group's header) reaches: the row beside it on screen. */
function rowBeside(focused: Element, delta: number): number | undefined {
  const rows = [...(focused.closest(RESULTS)?.querySelectorAll('.hit') ?? [])]
  const after = (row: Element) => (focused.compareDocumentPosition(row) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0
  return rowIndex(delta > 0 ? rows.find(after) : rows.findLast((row) => !after(row)))
}

/**
 * Moving the keyboard selection through the hits in the order they stand on screen (grouped
 * view differs from rank order), scrolling the row into view; near the end, more are loaded.
 * `from` is where the key was pressed: when that is inside the results, focus moves with the
 * selection, so Enter opens the highlighted hit and not the row or header focused before.
 */
export function createHitCursor(options: HitCursorOptions): (delta: number, from?: EventTarget | null) => void {
  const order = () => (options.view() === 'sessions' ? groupedOrder(options.hits(), options.moreFrom()) : options.hits().map((_, i) => i))
  return (delta, from) => {
    const list = order()
    if (!list.length) return
    const focused = from instanceof Element && from.closest(RESULTS) ? from : undefined
    const at = focused && !focused.matches('.hit')
      ? list.indexOf(rowBeside(focused, delta) ?? -1)
      : Math.max(0, Math.min(list.length - 1, list.indexOf(options.selected()) + delta))
    // Up from the first header: no row above it.
    if (at < 0) return
    options.select(list[at]!)
    const row = document.querySelector<HTMLElement>(`.hit[data-index="${list[at]}"]`)
    if (focused) row?.focus({ preventScroll: true })
    row?.scrollIntoView({ block: 'nearest' })
    if (at >= list.length - PREFETCH_ROWS) options.loadMore()
  }
}
