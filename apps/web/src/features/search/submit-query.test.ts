import { createRoot, createSignal } from 'solid-js'
import { describe, expect, it } from 'vitest'
import type { ListLoading } from '../../lib/cursor-list'
import { createSubmit } from './submit-query'

function mount(q: string) {
  return createRoot((dispose) => {
    const [typed, setTyped] = createSignal(q)
    const [searched, setSearched] = createSignal(q)
    const [loading, setLoading] = createSignal<ListLoading>(false)
    const [failed, setFailed] = createSignal(false)
    const opened: string[] = []
    const searches: string[] = []
    const enter = createSubmit({
      typed, searched, loading, failed,
      selects: (text) => !text.startsWith('-'),
      search: (text) => searches.push(text),
      open: () => opened.push(searched()),
    })
    return { enter, setTyped, setSearched, setLoading, setFailed, opened, searches, dispose }
  })
}

describe('createSubmit (Enter in the search box)', () => {
  it('opens at once when the results on screen answer the typed text', () => {
    const t = mount('keyset')
    t.enter.submit()
    expect([t.opened, t.searches]).toEqual([['keyset'], []])
    t.dispose()
  })

  it('searches the typed text first and opens its result, never one of the earlier query', () => {
    const t = mount('keyset')
    t.setTyped('createdAt')
    t.enter.submit()
    expect(t.searches).toEqual(['createdAt'])
    expect(t.opened).toEqual([])
    // The URL catches up, the first page loads, then it has arrived.
    t.setSearched('createdAt')
    t.setLoading('initial')
    expect(t.opened).toEqual([])
    t.setLoading(false)
    expect(t.opened).toEqual(['createdAt'])
    t.dispose()
  })

  it('drops the pending open on a failed page, a new query, a cancel, or text that selects nothing', () => {
    const failed = mount('a')
    failed.setTyped('b')
    failed.enter.submit()
    failed.setSearched('b')
    failed.setLoading('initial')
    failed.setFailed(true)
    failed.setLoading(false)
    expect(failed.opened).toEqual([])

    const moved = mount('a')
    moved.setTyped('b')
    moved.enter.submit()
    moved.setSearched('b')
    moved.setLoading('initial')
    moved.setSearched('c')
    moved.setLoading(false)
    expect(moved.opened).toEqual([])

    const cancelled = mount('a')
    cancelled.setTyped('b')
    cancelled.enter.submit()
    cancelled.enter.cancel()
    cancelled.setSearched('b')
    cancelled.setLoading('initial')
    cancelled.setLoading(false)
    expect(cancelled.opened).toEqual([])

    const nothing = mount('a')
    nothing.setTyped('-draft')
    nothing.enter.submit()
    expect(nothing.searches).toEqual(['-draft'])
    nothing.setSearched('-draft')
    nothing.setLoading('initial')
    nothing.setLoading(false)
    expect(nothing.opened).toEqual([])
    for (const t of [failed, moved, cancelled, nothing]) t.dispose()
  })
})
