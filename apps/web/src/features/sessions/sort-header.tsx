import { SESSION_SORTS, type SessionSort, type SortOrder } from '@loupe/domain'
import { For, type JSX } from 'solid-js'

export interface SortHeaderProps {
  sort: SessionSort
  /** The list's current sort. */
  current: { sort: SessionSort; order: SortOrder }
  class: string
  children: JSX.Element
  onSort: (sort: SessionSort) => void
}

const WORDS: Record<SortOrder, string> = { desc: 'largest first', asc: 'smallest first' }
const TIME_WORDS: Record<SortOrder, string> = { desc: 'newest first', asc: 'oldest first' }

/** A column header that sorts the list by its column: a real button, so Tab and Enter or Space work. */
export function SortHeader(props: SortHeaderProps) {
  const active = () => props.current.sort === props.sort
  const words = () => (props.sort === 'updated' ? TIME_WORDS : WORDS)
  const next = (): SortOrder => (active() && props.current.order === 'desc' ? 'asc' : 'desc')
  return (
    <span role="columnheader" class={props.class} aria-sort={active() ? (props.current.order === 'desc' ? 'descending' : 'ascending') : 'none'}>
      <button
        type="button"
        class="sort-button"
        classList={{ active: active() }}
        title={`Sort ${words()[next()]}`}
        onClick={() => props.onSort(props.sort)}
      >
        {props.children}
        <span class="sort-arrow" aria-hidden="true">{active() ? (props.current.order === 'desc' ? '▼' : '▲') : '↕'}</span>
      </button>
    </span>
  )
}

/** The sort after a click on `sort`'s header: the other direction when it is already sorted by it, else largest (newest) first. */
export function nextSort(current: { sort: SessionSort; order: SortOrder }, sort: SessionSort): { sort: SessionSort; order: SortOrder } {
  if (current.sort === sort) return { sort, order: current.order === 'desc' ? 'asc' : 'desc' }
  return { sort, order: 'desc' }
}

const LABELS: Record<SessionSort, string> = {
  updated: 'Updated',
  size: 'Size',
  eventBytes: 'Event log',
  tokens: 'Tokens',
  cost: 'Cost',
  messages: 'Messages',
}

export interface SortSelectProps {
  current: { sort: SessionSort; order: SortOrder }
  onChange: (next: { sort: SessionSort; order: SortOrder }) => void
}

/** The sort as a menu and a direction button: for narrow screens, where most column headers are hidden. */
export function SortSelect(props: SortSelectProps) {
  const words = () => (props.current.sort === 'updated' ? TIME_WORDS : WORDS)
  return (
    <div class="sort-field">
      <label class="select-field">
        <span class="visually-hidden">Sort by</span>
        <select onChange={(event) => props.onChange({ sort: event.currentTarget.value as SessionSort, order: props.current.order })}>
          <For each={SESSION_SORTS}>{(sort) => <option value={sort} selected={sort === props.current.sort}>Sort: {LABELS[sort]}</option>}</For>
        </select>
      </label>
      <button
        type="button"
        class="button sort-order"
        aria-label={`Order: ${words()[props.current.order]}`}
        title={`Order: ${words()[props.current.order]}`}
        onClick={() => props.onChange({ sort: props.current.sort, order: props.current.order === 'desc' ? 'asc' : 'desc' })}
      >
        {props.current.order === 'desc' ? '▼' : '▲'}
      </button>
    </div>
  )
}
