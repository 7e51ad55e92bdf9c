import { createRoot, createSignal } from 'solid-js'
import { describe, expect, it } from 'vitest'
import { createQueryHistory, SETTLED_MS } from './query-history'

describe('createQueryHistory', () => {
  it('replaces while typing, and keeps a search that stayed on screen', () => {
    let clock = 1000
    const [shown, setShown] = createSignal('?q=a')
    const [hasQuery, setHasQuery] = createSignal(true)
    const { history, dispose } = createRoot((dispose) => ({ history: createQueryHistory(shown, hasQuery, () => clock), dispose }))
    clock += SETTLED_MS - 1
    expect(history.replace()).toBe(true)
    clock += 1
    expect(history.replace()).toBe(false)
    // A new search on screen starts its own wait.
    setShown('?q=ab')
    expect(history.replace()).toBe(true)
    clock += SETTLED_MS
    expect(history.replace()).toBe(false)
    setHasQuery(false)
    expect(history.replace()).toBe(true)
    dispose()
  })
})
