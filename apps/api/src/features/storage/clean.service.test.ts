import { afterEach, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { fixedClock } from '../../lib/clock.js'
import { startClean } from './clean-apply.service.js'

let deps: TestDeps | undefined
afterEach(() => deps?.cleanup())

const DAY = 24 * 60 * 60 * 1000

/** Deps whose clock is `days` after the fixture's newest activity. */
async function depsLater(days: number) {
  const d = await createTestDeps((await realFixture()).db)
  const newest = d.opencode.db.getSql<{ t: number }>(`SELECT max(time_updated) AS t FROM session`)?.t ?? 0
  d.clock = fixedClock(newest + days * DAY)
  return d
}

describe('storage.cleanPlan / cleanApply', () => {
  it('plans the idle sessions with a fingerprint, refuses a stale one with conflict, applies, and then has nothing left', async () => {
    deps = await depsLater(10)
    const caller = createCaller({ deps })
    const rule = { idleDays: 7 }
    const plan = await caller.storage.cleanPlan({ rule })
    expect(plan.sessions).toBeGreaterThan(0)
    expect(plan.parts).toBeGreaterThan(0)
    expect(plan.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect(plan.list.reduce((n, s) => n + s.parts, 0)).toBe(plan.parts)
    // Each listed session carries where it ran, so sessions of one title can be told apart.
    expect(plan.list.every((s) => s.directory.startsWith('/'))).toBe(true)
    // Nothing is idle for a year; nothing is this big.
    expect((await caller.storage.cleanPlan({ rule: { idleDays: 365 } })).sessions).toBe(0)
    expect((await caller.storage.cleanPlan({ rule: { idleDays: 7, minToolOutputKB: 1_000_000 } })).sessions).toBe(0)

    // One session cleaned meanwhile: the plan's fingerprint no longer matches.
    const first = plan.list[0]
    if (!first) throw new Error('no session in the plan')
    const session = await caller.pruning.sessionPlan({ sessionID: first.sessionID, storage: first.storage })
    const [candidate] = session.candidates
    if (!candidate) throw new Error('no candidate')
    expect((await caller.pruning.pruneBatch({ sessionID: first.sessionID, storage: first.storage, candidates: [{ messageID: candidate.messageID, revision: candidate.revision }] })).results[0]?.result.status).toBe('pruned')
    expect(await caller.storage.cleanApply({ rule, fingerprint: plan.fingerprint })).toMatchObject({ status: 'conflict' })
    expect(deps.storage.clean.status()).toEqual({ state: 'idle' })

    const fresh = await caller.storage.cleanPlan({ rule })
    expect(fresh.parts).toBeLessThan(plan.parts)
    const applied = await startClean(deps, { rule, fingerprint: fresh.fingerprint }, { wait: true })
    expect(applied).toMatchObject({ status: 'started', result: { status: 'done', pruned: { parts: fresh.parts, blocked: 0 } } })
    expect(await caller.storage.cleanStatus()).toMatchObject({ state: 'finished', result: { status: 'done' } })
    expect((await caller.storage.cleanPlan({ rule })).sessions).toBe(0)
  })

  it('keeps to the size rule: only tool parts of at least K KB', async () => {
    deps = await depsLater(10)
    const caller = createCaller({ deps })
    const all = await caller.storage.cleanPlan({ rule: { idleDays: 1 } })
    const big = await caller.storage.cleanPlan({ rule: { idleDays: 1, minToolOutputKB: 1 } })
    expect(big.parts).toBeGreaterThan(0)
    expect(big.parts).toBeLessThan(all.parts)
    const applied = await startClean(deps, { rule: { idleDays: 1, minToolOutputKB: 1 }, fingerprint: big.fingerprint }, { wait: true })
    expect(applied.result?.pruned.parts).toBe(big.parts)
    expect((await caller.storage.cleanPlan({ rule: { idleDays: 1, minToolOutputKB: 1 } })).sessions).toBe(0)
    expect((await caller.storage.cleanPlan({ rule: { idleDays: 1 } })).parts).toBe(all.parts - big.parts)
  })

  it('stops between sessions when asked, and a new plan then lists what is left', async () => {
    deps = await depsLater(10)
    const caller = createCaller({ deps })
    const plan = await caller.storage.cleanPlan({ rule: { idleDays: 1 } })
    expect(plan.sessions).toBeGreaterThan(2)
    expect(await caller.storage.cleanApply({ rule: { idleDays: 1 }, fingerprint: plan.fingerprint })).toMatchObject({ status: 'started' })
    expect(await caller.storage.cleanStop()).toEqual({ stopping: true })
    while (deps.storage.clean.status().state === 'running') await new Promise((r) => setTimeout(r, 20))
    const state = await caller.storage.cleanStatus()
    expect(state).toMatchObject({ state: 'finished', result: { status: 'stopped' } })
    const done = state.state === 'finished' ? state.result.pruned.sessions : -1
    expect(done).toBeLessThan(plan.sessions)
    expect((await caller.storage.cleanPlan({ rule: { idleDays: 1 } })).sessions).toBe(plan.sessions - done)
  })
})

