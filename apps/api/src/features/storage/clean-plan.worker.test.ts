import fs from 'node:fs'
import { createRequire } from 'node:module'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { AppError } from '../../errors.js'
import { fixedClock } from '../../lib/clock.js'
import { planClean } from './clean-plan.service.js'

let deps: TestDeps | undefined
afterEach(() => deps?.cleanup())

const DAY = 24 * 60 * 60 * 1000
const rule = { idleDays: 7 }

async function depsLater(days: number) {
  const d = await createTestDeps((await realFixture()).db)
  const newest = d.opencode.db.getSql<{ t: number }>(`SELECT max(time_updated) AS t FROM session`)?.t ?? 0
  d.clock = fixedClock(newest + days * DAY)
  return d
}

/** gpt-tokenizer's modules in this process's CommonJS cache: loaded here, not only in a worker. */
const tokenizerLoadedHere = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('gpt-tokenizer'))

describe('the clean-up plan in its own thread', () => {
  it('tokenizes in the thread, and the server keeps only the token counts it brought back', async () => {
    deps = await depsLater(10)
    const first = await planClean(deps, rule)
    expect(first.tokens).toBeGreaterThan(0)
    expect(tokenizerLoadedHere()).toBe(false)
    const remembered = deps.pruning.tokens.counts.size
    expect(remembered).toBeGreaterThan(0)
    // Planned again from the counts it took back: the same plan, the memo no larger.
    const again = await planClean(deps, rule)
    expect(again).toEqual(first)
    expect(deps.pruning.tokens.counts.size).toBe(remembered)
    // The probe sees a tokenizer loaded on this thread.
    deps.tokenizer.estimateTokens('loaded here')
    expect(tokenizerLoadedHere()).toBe(true)
  })

  it('answers plans asked at once as if each were asked alone', async () => {
    deps = await depsLater(10)
    const [a, b, c] = await Promise.all([planClean(deps, rule), planClean(deps, rule, { targets: false }), planClean(deps, { idleDays: 7, minToolOutputKB: 1 })])
    expect(b).toEqual({ ...a, all: [] })
    expect(a.all.length).toBe(a.sessions)
    expect(c.parts).toBeLessThan(a.parts)
  })

  it('skips every session with the server\'s own answer when a write could not land', async () => {
    deps = await depsLater(10)
    const planned = await planClean(deps, rule)
    deps.opencode.readonly = true
    const refused = await planClean(deps, rule)
    expect(refused.sessions).toBe(0)
    expect(refused.skipped.map((s) => s.sessionID).sort()).toEqual(planned.all.map((s) => s.sessionID).sort())
    expect(new Set(refused.skipped.map((s) => s.reason))).toEqual(new Set(['Loupe cannot write to this file (permissions).']))
  })

  it('answers unavailable when the thread cannot open the file, and the next plan runs', async () => {
    deps = await depsLater(10)
    const { path } = deps.opencode
    fs.renameSync(path, `${path}.moved`)
    const failed = await planClean(deps, rule).catch((error: unknown) => error)
    expect(failed).toBeInstanceOf(AppError)
    expect((failed as AppError).code).toBe('unavailable')
    expect((failed as AppError).message).toMatch(/^The clean-up plan could not read the database: /)
    fs.renameSync(`${path}.moved`, path)
    expect((await planClean(deps, rule)).sessions).toBeGreaterThan(0)
  })
})
