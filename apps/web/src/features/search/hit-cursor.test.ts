import { createRoot, createSignal } from 'solid-js'
import { describe, expect, it } from 'vitest'
import { createHitCursor } from './hit-cursor'
import type { SearchHit } from './search.data'

const hit = (sessionID: string): SearchHit => ({
  sessionID, storage: 'v1', sessionTitle: sessionID, sessionDirectory: '', messageID: 'msg_1', kind: 'text', snippet: [], score: 1, time: 0,
})

function mount(view: 'sessions' | 'flat', moreFrom: number[] = []) {
  return createRoot((dispose) => {
    const [selected, select] = createSignal(0)
    let loads = 0
    // Rank order a b a c a b a c: grouped, a's hits come first.
    const hits = ['a', 'b', 'a', 'c', 'a', 'b', 'a', 'c'].map(hit)
    const move = createHitCursor({ hits: () => hits, moreFrom: () => moreFrom, view: () => view, selected, select, loadMore: () => loads++ })
    const walk = (n: number, delta = 1) => Array.from({ length: n }, () => (move(delta), selected()))
    return { walk, loads: () => loads, dispose }
  })
}

describe('createHitCursor', () => {
  it('follows the rows as grouped on screen, a later page below the first, and stops at either end', () => {
    const grouped = mount('sessions')
    expect(grouped.walk(8)).toEqual([2, 4, 6, 1, 5, 3, 7, 7])
    expect(grouped.walk(9, -1)).toEqual([3, 5, 1, 6, 4, 2, 0, 0, 0])
    grouped.dispose()
    const paged = mount('sessions', [4])
    expect(paged.walk(7)).toEqual([2, 1, 3, 4, 6, 5, 7])
    paged.dispose()
  })

  it('asks for more on reaching the last rows, in rank order when flat', () => {
    const flat = mount('flat')
    expect(flat.walk(3)).toEqual([1, 2, 3])
    expect(flat.loads()).toBe(0)
    flat.walk(1)
    expect(flat.loads()).toBe(1)
    flat.dispose()
  })
})
