import { describe, expect, it } from 'vitest'
import { createJobRunner } from './job-runner.js'

const clock = () => {
  let t = 1_000
  return () => (t += 10)
}

/** A job that waits for `release` and then answers what it is given. */
function gate<T>() {
  let release: (value: T) => void = () => {}
  let fail: (error: Error) => void = () => {}
  const promise = new Promise<T>((resolve, reject) => ((release = resolve), (fail = reject)))
  return { promise, release, fail }
}

describe('createJobRunner', () => {
  it('runs one job of its kind at a time, shows its reports, and keeps its outcome under the named key', async () => {
    const runner = createJobRunner<{ step: number; stopping: boolean }, string, 'answer'>('answer')
    const g = gate<string>()
    const now = clock()
    const run = runner.run({ now, initial: { step: 0, stopping: false } }, async ({ report }) => {
      report({ step: 1 })
      return g.promise
    })
    expect(run).toBeInstanceOf(Promise)
    expect(runner.status()).toEqual({ state: 'running', startedAt: 1_010, step: 1, stopping: false })
    expect(runner.run({ now, initial: { step: 0, stopping: false } }, async () => 'second')).toBeUndefined()
    g.release('first')
    expect(await run).toBe('first')
    expect(runner.status()).toEqual({ state: 'finished', startedAt: 1_010, finishedAt: 1_020, answer: 'first' })
    // Finished is not running: the next job may start.
    expect(await runner.run({ now, initial: { step: 0, stopping: false } }, async () => 'again')).toBe('again')
  })

  it('stops a job whose progress carries `stopping`: the signal aborts and the flag shows at once', async () => {
    const runner = createJobRunner<{ stopping: boolean }, 'done' | 'stopped', 'result'>('result')
    expect(runner.stop()).toBe(false)
    const g = gate<void>()
    const run = runner.run({ now: clock(), initial: { stopping: false } }, async ({ signal }) => {
      await g.promise
      return signal.aborted ? 'stopped' : 'done'
    })
    expect(runner.stop()).toBe(true)
    expect(runner.status()).toMatchObject({ state: 'running', stopping: true })
    g.release()
    expect(await run).toBe('stopped')
    expect(runner.stop()).toBe(false)
  })

  it('has no stop for a job whose progress does not carry `stopping`', async () => {
    const runner = createJobRunner<{ phase: string }, string, 'result'>('result')
    const g = gate<string>()
    let aborted = false
    const run = runner.run({ now: clock(), initial: { phase: 'copy' } }, async ({ signal }) => {
      const out = await g.promise
      aborted = signal.aborted
      return out
    })
    expect(runner.stop()).toBe(false)
    expect(runner.status()).toEqual({ state: 'running', startedAt: 1_010, phase: 'copy' })
    g.release('ok')
    await run
    expect(aborted).toBe(false)
  })

  it('after a throw: idle again, or finished with the onError outcome; the promise rejects either way', async () => {
    const plain = createJobRunner<{ stopping: boolean }, string, 'answer'>('answer')
    await expect(plain.run({ now: clock(), initial: { stopping: false } }, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(plain.status()).toEqual({ state: 'idle' })

    const kept = createJobRunner<{ stopping: boolean }, string, 'result'>('result')
    const run = kept.run({ now: clock(), initial: { stopping: false }, onError: (e) => `stopped: ${(e as Error).message}` }, async () => Promise.reject(new Error('boom')))
    await expect(run).rejects.toThrow('boom')
    expect(kept.status()).toEqual({ state: 'finished', startedAt: 1_010, finishedAt: 1_020, result: 'stopped: boom' })
  })

  it('settled() waits for the running job and answers at once when none runs', async () => {
    const runner = createJobRunner<{ phase: string }, string, 'result'>('result')
    await runner.settled()
    const g = gate<string>()
    void runner.run({ now: clock(), initial: { phase: 'copy' } }, () => g.promise)
    let settled = false
    const waiting = runner.settled().then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    g.release('ok')
    await waiting
    expect(runner.status()).toMatchObject({ state: 'finished', result: 'ok' })
  })

  it('tells its owner each time a job has settled, done or failed', async () => {
    let settled = 0
    const runner = createJobRunner<{ phase: string }, string, 'result'>('result', () => settled++)
    expect(await runner.run({ now: clock(), initial: { phase: 'a' } }, async () => 'ok')).toBe('ok')
    expect(settled).toBe(1)
    await expect(runner.run({ now: clock(), initial: { phase: 'a' } }, async () => { throw new Error('boom') })).rejects.toThrow('boom')
    expect(settled).toBe(2)
    // A refused start (one already running) is no job of its own.
    const g = gate<string>()
    const run = runner.run({ now: clock(), initial: { phase: 'a' } }, () => g.promise)
    expect(runner.run({ now: clock(), initial: { phase: 'b' } }, async () => 'second')).toBeUndefined()
    g.release('first')
    await run
    expect(settled).toBe(3)
  })
})
