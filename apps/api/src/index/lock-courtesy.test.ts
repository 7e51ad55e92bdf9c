import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { createLockCourtesy } from './lock-courtesy.js'

// The worker side runs in a real worker thread, as the indexer's does. Once it has loaded this
// module (through tsx) it says 'ready' and waits for `go`; then it raises `entered`, yields, raises
// `passed` and reports how long it waited.
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads')
;(async () => {
  const { register } = await import(workerData.tsx)
  register()
  const { createLockCourtesy } = await import(workerData.module)
  const courtesy = createLockCourtesy(workerData.shared)
  const flags = new Int32Array(workerData.flags)
  parentPort.postMessage({ type: 'ready' })
  while (Atomics.load(flags, 2) === 0) Atomics.wait(flags, 2, 0, 1000)
  Atomics.store(flags, 0, 1)
  Atomics.notify(flags, 0)
  const t0 = performance.now()
  courtesy.yieldIfWanted(workerData.maxMs)
  Atomics.store(flags, 1, 1)
  parentPort.postMessage({ type: 'passed', waitedMs: performance.now() - t0 })
})()
`
const [ENTERED, PASSED, GO] = [0, 1, 2]

async function startYielder(shared: SharedArrayBuffer, maxMs: number) {
  const flags = new Int32Array(new SharedArrayBuffer(12))
  const worker = new Worker(WORKER, {
    eval: true,
    execArgv: [],
    workerData: {
      tsx: import.meta.resolve('tsx/esm/api'), module: new URL('./lock-courtesy.ts', import.meta.url).href,
      shared, flags: flags.buffer, maxMs,
    },
  })
  const messages = new Map<string, (value: { waitedMs?: number }) => void>()
  const next = (type: string) => new Promise<{ waitedMs?: number }>((resolve) => messages.set(type, resolve))
  const ready = next('ready')
  const passed = next('passed')
  const failed = new Promise<never>((_, reject) => {
    worker.on('error', reject)
    worker.on('exit', (code) => reject(new Error(`the worker exited (${code}) before it passed`)))
  })
  worker.on('message', (m: { type: string; waitedMs?: number }) => messages.get(m.type)?.(m))
  await Promise.race([ready, failed])
  return {
    flags,
    /** Let the worker go on to yield, and block this thread until it is about to. */
    go() {
      Atomics.store(flags, GO, 1)
      Atomics.notify(flags, GO)
      return Atomics.wait(flags, ENTERED, 0, 10_000) !== 'timed-out' || Atomics.load(flags, ENTERED) === 1
    },
    passed: Promise.race([passed, failed]).finally(() => worker.terminate()),
  }
}

describe('lock courtesy', () => {
  it('holds the worker back for as long as the main thread wants the lock, and lets it go after', async () => {
    const courtesy = createLockCourtesy()
    const yielder = await startYielder(courtesy.shared, 60_000)
    const { entered, heldBack } = courtesy.claim(() => {
      const entered = yielder.go()
      // The worker is waiting now; give it a real chance to run past the claim, which it must not.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200)
      return { entered, heldBack: Atomics.load(yielder.flags, PASSED) === 0 }
    })
    expect(entered).toBe(true)
    expect(heldBack).toBe(true)
    await yielder.passed
    expect(Atomics.load(yielder.flags, PASSED)).toBe(1)
  })

  it('does not wait when nobody wants the lock', async () => {
    const courtesy = createLockCourtesy()
    const yielder = await startYielder(courtesy.shared, 60_000)
    expect(yielder.go()).toBe(true)
    await yielder.passed
    expect(Atomics.load(yielder.flags, PASSED)).toBe(1)
  })

  it('gives up after its limit, so a main thread that never lets go cannot stall indexing', async () => {
    const courtesy = createLockCourtesy()
    const wanted = new Int32Array(courtesy.shared)
    Atomics.add(wanted, 0, 1)
    const yielder = await startYielder(courtesy.shared, 50)
    yielder.go()
    const { waitedMs } = await yielder.passed
    // A lower bound only: it cannot have passed before its limit while the lock stayed wanted.
    expect(waitedMs).toBeGreaterThanOrEqual(50)
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
