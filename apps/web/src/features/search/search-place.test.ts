import { createRoot, createSignal } from 'solid-js'
import { afterEach, describe, expect, it } from 'vitest'
import type { ListLoading } from '../../lib/cursor-list'
import { rememberPlace, restorePlace } from './search-place'

/** A result list that grows by 30 per loadMore, up to `total`. */
function mount(total = 100) {
  return createRoot((dispose) => {
    const [key, setKey] = createSignal('q=the')
    const [count, setCount] = createSignal(0)
    const [loading, setLoading] = createSignal<ListLoading>('initial')
    const [failed, setFailed] = createSignal(false)
    const selected: number[] = []
    let loads = 0
    const page = () => {
      setCount(Math.min(total, count() + 30))
      setLoading(false)
    }
    restorePlace({
      key, count, loading, failed,
      answered: () => count() > 0 || failed(),
      hasMore: () => count() < total,
      loadMore: () => {
        loads++
        setLoading('more')
      },
      select: (i) => selected.push(i),
    })
    return { page, setKey, setFailed, setLoading, selected, loads: () => loads, dispose }
  })
}

describe('restorePlace (Back to a search)', () => {
  afterEach(() => window.history.replaceState(null, '', '/'))

  it('loads as many results as there were and selects the one that was opened', () => {
    window.history.replaceState(null, '', '/search?q=the')
    rememberPlace(58, 60)
    const t = mount()
    t.page()
    expect(t.loads()).toBe(1)
    t.page()
    expect([t.loads(), t.selected]).toEqual([1, [58]])
    // The place is in the entry's state, not in the address.
    expect(window.location.search).toBe('?q=the')
    t.dispose()
  })

  it('gives up on a failed page or another query, and ignores a place of another search', () => {
    window.history.replaceState(null, '', '/search?q=the')
    rememberPlace(58, 60)
    const failing = mount()
    failing.page()
    failing.setFailed(true)
    failing.setLoading(false)
    expect([failing.loads(), failing.selected]).toEqual([1, []])

    const moved = mount()
    moved.page()
    moved.setKey('q=other')
    moved.page()
    expect([moved.loads(), moved.selected]).toEqual([1, []])

    window.history.replaceState(window.history.state, '', '/search?q=other')
    const other = mount()
    other.page()
    expect([other.loads(), other.selected]).toEqual([0, []])
    for (const t of [failing, moved, other]) t.dispose()
  })
})
