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
    // On a page showing 'a', type `text` and press Enter; the URL then catches up and a first page starts loading.
    const enterThenLoad = (text: string, between?: (t: ReturnType<typeof mount>) => void) => {
      const t = mount('a')
      t.setTyped(text)
      t.enter.submit()
      between?.(t)
      t.setSearched(text)
      t.setLoading('initial')
      return t
    }
    const failed = enterThenLoad('b')
    failed.setFailed(true)
    failed.setLoading(false)
    const moved = enterThenLoad('b')
    moved.setSearched('c')
    moved.setLoading(false)
    const cancelled = enterThenLoad('b', (t) => t.enter.cancel())
    cancelled.setLoading(false)
    const nothing = enterThenLoad('-draft')
    nothing.setLoading(false)
    expect(nothing.searches).toEqual(['-draft'])
    for (const t of [failed, moved, cancelled, nothing]) {
      expect(t.opened).toEqual([])
      t.dispose()
    }
  })
})
