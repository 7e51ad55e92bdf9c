import { createEffect, createSignal, on, type Accessor } from 'solid-js'
import { listHasFocus, useKeys } from '../../lib/keys'
import { isValidId } from '../../lib/links'
import type { SessionListState } from './sessions.data'

export interface ListSelectionOptions {
  /** `?sel=` from the URL: the session to select when the list arrives. */
  initial: Accessor<string | undefined>
  onOpen: (index: number) => void
  onFocusFilter: () => void
}

const rowAt = (index: number) => document.querySelectorAll<HTMLElement>('.session-row')[index]

/** The keyboard cursor of the session list: j/k or arrows move it, Enter opens, f focuses the filter. */
export function createListSelection(list: SessionListState, options: ListSelectionOptions) {
  const [selected, setSelected] = createSignal(0)

  createEffect(on(list.sessions, (sessions) => {
    const wanted = options.initial()
    const at = isValidId(wanted) ? sessions.findIndex((s) => s.id === wanted) : -1
    setSelected(at >= 0 ? at : Math.min(selected(), Math.max(0, sessions.length - 1)))
    if (at >= 0) queueMicrotask(() => rowAt(at)?.scrollIntoView({ block: 'nearest' }))
  }))

  const move = (delta: number) => {
    const next = Math.max(0, Math.min(list.sessions().length - 1, selected() + delta))
    setSelected(next)
    rowAt(next)?.scrollIntoView({ block: 'nearest' })
    // A focused control (a row, the help button a closed dialog gave the focus back to) hands the
    // focus to the selected row, so Enter opens what the keys selected.
    const active = document.activeElement
    if (active && active !== document.body) rowAt(next)?.focus({ preventScroll: true })
    if (next >= list.sessions().length - 3) list.loadMore()
  }
  useKeys((event) => {
    if (event.key === 'j' || event.key === 'ArrowDown') move(1)
    else if (event.key === 'k' || event.key === 'ArrowUp') move(-1)
    // A focused button or link ("Load more sessions", the header's Storage) keeps its Enter.
    else if (event.key === 'Enter' && listHasFocus(event.target, '.session-row')) options.onOpen(selected())
    else if (event.key === 'f') options.onFocusFilter()
    else return
    event.preventDefault()
  })
  return { selected, setSelected }
}
