import type { SessionSort, SortOrder } from '@loupe/domain'
import { fireEvent, render, screen } from '@solidjs/testing-library'
import { createSignal } from 'solid-js'
import { describe, expect, it } from 'vitest'
import { nextSort, SortHeader, SortSelect } from './sort-header'

describe('nextSort', () => {
  it.each([
    [{ sort: 'updated', order: 'desc' }, 'size', { sort: 'size', order: 'desc' }],
    [{ sort: 'size', order: 'desc' }, 'size', { sort: 'size', order: 'asc' }],
    [{ sort: 'size', order: 'asc' }, 'size', { sort: 'size', order: 'desc' }],
    [{ sort: 'size', order: 'asc' }, 'cost', { sort: 'cost', order: 'desc' }],
  ] as const)('turns %j into the next sort on a click of %s', (current, column, expected) => {
    expect(nextSort(current, column)).toEqual(expected)
  })
})

describe('SortHeader', () => {
  it('says which way its column is sorted, and sorts on a click', () => {
    const [current, setCurrent] = createSignal<{ sort: SessionSort; order: SortOrder }>({ sort: 'size', order: 'desc' })
    render(() => (
      <div role="row">
        <SortHeader sort="size" class="col-size" current={current()} onSort={(s) => setCurrent(nextSort(current(), s))}>Size</SortHeader>
        <SortHeader sort="cost" class="col-cost" current={current()} onSort={(s) => setCurrent(nextSort(current(), s))}>Cost</SortHeader>
      </div>
    ))
    const size = () => screen.getByRole('columnheader', { name: /Size/ })
    const cost = () => screen.getByRole('columnheader', { name: /Cost/ })
    expect(size().getAttribute('aria-sort')).toBe('descending')
    expect(cost().getAttribute('aria-sort')).toBe('none')
    fireEvent.click(screen.getByRole('button', { name: /Size/ }))
    expect(size().getAttribute('aria-sort')).toBe('ascending')
    fireEvent.click(screen.getByRole('button', { name: /Cost/ }))
    expect(cost().getAttribute('aria-sort')).toBe('descending')
    expect(size().getAttribute('aria-sort')).toBe('none')
  })
})

describe('SortSelect', () => {
  it('changes the column from the menu and the direction from its button', () => {
    const seen: unknown[] = []
    render(() => <SortSelect current={{ sort: 'tokens', order: 'desc' }} onChange={(next) => seen.push(next)} />)
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'messages' } })
    fireEvent.click(screen.getByRole('button', { name: 'Order: largest first' }))
    expect(seen).toEqual([{ sort: 'messages', order: 'desc' }, { sort: 'tokens', order: 'asc' }])
  })
})
