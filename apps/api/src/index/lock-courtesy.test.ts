import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { createLockCourtesy } from './lock-courtesy.js'

// The worker side runs in a real worker thread, as the indexer's does: it loads this module
// through tsx, raises `entered` just before it yields, and `passed` once it went on.
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads')
;(async () => {
  const { register } = await import('tsx/esm/api')
  register()
  const { createLockCourtesy } = await import(workerData.module)
  const courtesy = createLockCourtesy(workerData.shared)
  const flags = new Int32Array(workerData.flags)
  Atomics.store(flags, 0, 1)
  Atomics.notify(flags, 0)
  courtesy.yieldIfWanted(workerData.maxMs)
  Atomics.store(flags, 1, 1)
  parentPort.postMessage('passed')
})()
`

function startYielder(shared: SharedArrayBuffer, maxMs: number) {
  const flags = new Int32Array(new SharedArrayBuffer(8))
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { module: new URL('./lock-courtesy.ts', import.meta.url).href, shared, flags: flags.buffer, maxMs },
  })
  const passed = new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve())
    worker.once('error', reject)
  })
  return {
    flags,
    passed: passed.finally(() => worker.terminate()),
    /** Block this thread until the worker is about to yield. */
    awaitEntered: () => expect(Atomics.wait(flags, 0, 0, 30_000)).not.toBe('timed-out'),
  }
}

describe('lock courtesy', () => {
  it('holds the worker back for as long as the main thread wants the lock, and lets it go after', async () => {
    const courtesy = createLockCourtesy()
    let yielder: ReturnType<typeof startYielder> | undefined
    const heldBack = courtesy.claim(() => {
      yielder = startYielder(courtesy.shared, 60_000)
      if (Atomics.load(yielder.flags, 0) === 0) yielder.awaitEntered()
      // The worker is waiting now; give it a real chance to run past the claim, which it must not.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200)
      return Atomics.load(yielder.flags, 1)
    })
    expect(heldBack).toBe(0)
    await yielder!.passed
    expect(Atomics.load(yielder!.flags, 1)).toBe(1)
  })

  it('does not wait when nobody wants the lock', async () => {
    const courtesy = createLockCourtesy()
    const yielder = startYielder(courtesy.shared, 60_000)
    await yielder.passed
    expect(Atomics.load(yielder.flags, 1)).toBe(1)
  })

  it('gives up after its limit, so a main thread that never lets go cannot stall indexing', async () => {
    const courtesy = createLockCourtesy()
    const wanted = new Int32Array(courtesy.shared)
    Atomics.add(wanted, 0, 1)
    const yielder = startYielder(courtesy.shared, 50)
    await yielder.passed
    expect(Atomics.load(wanted, 0)).toBe(1)
  })

  it('counts nested claims and releases a claim whose work threw', () => {
    const courtesy = createLockCourtesy()
    const wanted = new Int32Array(courtesy.shared)
    const inner = courtesy.claim(() => courtesy.claim(() => Atomics.load(wanted, 0)))
    expect(inner).toBe(2)
    expect(() => courtesy.claim(() => {
      throw new Error('re-index failed')
    })).toThrow('re-index failed')
    expect(Atomics.load(wanted, 0)).toBe(0)
  })
})
