import v8 from 'node:v8'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { configureServerHeap, takeFullCollection } from './server-heap.js'

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

  it("leaves a worker started afterwards its own young generation, whatever this thread's semi-space flag", async () => {
    // What a worker's new space grows to while it allocates fast, under a 16 MB young generation.
    const newSpaceOfWorker = async () => {
      const script = `
const v8 = require('node:v8')
let junk = [], max = 0
for (let r = 0; r < 60; r++) {
  junk = []
  for (let i = 0; i < 50000; i++) junk.push({ s: 'y' + i })
  max = Math.max(max, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)
}
require('node:worker_threads').parentPort.postMessage(max)`
      const worker = new Worker(script, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 16 } })
      const max = await new Promise<number>((resolve, reject) => worker.once('message', resolve).once('error', reject))
      await worker.terminate()
      return max / 1024 / 1024
    }
    // A launch flag as the launchers pass one, set smaller than theirs so that it caps the worker's
    // 16 MB well below what the worker reaches on its own (V8 reads it when a thread's heap is set up).
    v8.setFlagsFromString('--max-semi-space-size=2')
    try {
      expect(await newSpaceOfWorker()).toBeLessThanOrEqual(4)
      configureServerHeap()
      expect(await newSpaceOfWorker()).toBeGreaterThan(8)
    } finally {
      v8.setFlagsFromString('--max-semi-space-size=0')
    }
  })

  it('leaves no gc global in a worker started afterwards', async () => {
    configureServerHeap()
    const worker = new Worker("require('node:worker_threads').parentPort.postMessage(typeof globalThis.gc)", { eval: true })
    const seen = await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject))
    await worker.terminate()
    expect(seen).toBe('undefined')
  })

  it("gives a worker thread its own heap's collection, and no gc global there either", async () => {
    // The index follower takes it this way: the thread's own module, loaded through tsx.
    const script = `
const { workerData, parentPort } = require('node:worker_threads')
const v8 = require('node:v8')
;(async () => {
  const { register } = await import(workerData.tsx)
  register()
  const { takeFullCollection } = await import(workerData.module)
  const collect = takeFullCollection()
  let kept = Array.from({ length: 300000 }, (_, n) => ({ n, s: 'row ' + n }))
  const withGarbage = (kept.length, (kept = null), v8.getHeapStatistics().used_heap_size)
  collect()
  parentPort.postMessage({ freed: withGarbage - v8.getHeapStatistics().used_heap_size, global: typeof globalThis.gc })
})()`
    const worker = new Worker(script, { eval: true, execArgv: [], workerData: { tsx: import.meta.resolve('tsx/esm/api'), module: new URL('./server-heap.ts', import.meta.url).href } })
    const seen = await new Promise<{ freed: number; global: string }>((resolve, reject) => worker.once('message', resolve).once('error', reject))
    await worker.terminate()
    expect(seen.freed).toBeGreaterThan(10 * 1024 * 1024)
    expect(seen.global).toBe('undefined')
    expect(takeFullCollection()).toBeTypeOf('function')
    expect('gc' in globalThis).toBe(false)
  })
})
