import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { collectAfterBusyWork, createHeapCollector } from './heap-collector.js'

describe('createHeapCollector', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('collects once, its delay after the last of a burst of ended jobs', () => {
    let collections = 0
    const heap = createHeapCollector(() => collections++, 20)
    heap.afterJob()
    vi.advanceTimersByTime(15)
    heap.afterJob()
    vi.advanceTimersByTime(15)
    // 30 ms after the first call, 15 after the second: the second call moved the collection on.
    expect(collections).toBe(0)
    vi.advanceTimersByTime(5)
    expect(collections).toBe(1)
    vi.advanceTimersByTime(100)
    expect(collections).toBe(1)
    heap.afterJob()
    vi.advanceTimersByTime(20)
    expect(collections).toBe(2)
  })

  it('drops a pending collection on close, and collects for no job that ends after it', () => {
    let collections = 0
    const heap = createHeapCollector(() => collections++, 20)
    heap.afterJob()
    heap.close()
    vi.advanceTimersByTime(100)
    expect(collections).toBe(0)
    heap.afterJob()
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(100)
    expect(collections).toBe(0)
  })

  it('schedules nothing without a collection (the CLI, the tests)', () => {
    const none = createHeapCollector(null, 20)
    none.afterJob()
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('collectAfterBusyWork', () => {
  it('asks for a collection once the steps add up to the threshold and the work is caught up', () => {
    let asked = 0
    const step = collectAfterBusyWork({ afterJob: () => asked++, close: () => {} }, 100)
    step(60, true)
    expect(asked).toBe(0)
    step(60, false)
    // Past the threshold, but more is left to do: not yet.
    expect(asked).toBe(0)
    step(1, true)
    expect(asked).toBe(1)
    // The count starts again from nothing.
    step(99, true)
    expect(asked).toBe(1)
    step(1, true)
    expect(asked).toBe(2)
  })
})
