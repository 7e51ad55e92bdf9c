import { describe, expect, it } from 'vitest'
import { createHeapCollector } from './heap-collector.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('createHeapCollector', () => {
  it('collects once after a burst of ended jobs, after its delay', async () => {
    let collections = 0
    const heap = createHeapCollector(() => collections++, 20)
    heap.afterJob()
    heap.afterJob()
    heap.afterJob()
    expect(collections).toBe(0)
    await sleep(60)
    expect(collections).toBe(1)
    heap.afterJob()
    await sleep(60)
    expect(collections).toBe(2)
  })

  it('drops a pending collection on close, and does nothing without a collection', async () => {
    let collections = 0
    const heap = createHeapCollector(() => collections++, 20)
    heap.afterJob()
    heap.close()
    await sleep(60)
    expect(collections).toBe(0)
    // Without a collection (the CLI, the tests) a job's end schedules nothing that could fail later.
    const none = createHeapCollector(null, 20)
    expect(() => none.afterJob()).not.toThrow()
    expect(() => none.close()).not.toThrow()
  })
})
