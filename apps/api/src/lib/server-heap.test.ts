import v8 from 'node:v8'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { configureServerHeap } from './server-heap.js'

describe('configureServerHeap', () => {
  it("gives this process V8's full collection without a launch flag or a global", () => {
    const collect = configureServerHeap()
    expect(collect).toBeTypeOf('function')
    expect('gc' in globalThis).toBe(false)
    // Garbage that survived young collections: only a full one frees it.
    let kept: Array<{ n: number; s: string }> | null = Array.from({ length: 300_000 }, (_, n) => ({ n, s: `row ${n}` }))
    const withGarbage = (kept.length, (kept = null), v8.getHeapStatistics().used_heap_size)
    collect!()
    const after = v8.getHeapStatistics().used_heap_size
    expect(withGarbage - after).toBeGreaterThan(10 * 1024 * 1024)
  })

  it('leaves no gc global in a worker started afterwards', async () => {
    configureServerHeap()
    const worker = new Worker("require('node:worker_threads').parentPort.postMessage(typeof globalThis.gc)", { eval: true })
    const seen = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject))
    await worker.terminate()
    expect(seen).toBe('undefined')
  })
})
