import { createHash } from 'node:crypto'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { buildV2Fixture } from '../../../test/fixtures/v2-fixture.js'
import { fixedClock } from '../../lib/clock.js'
import { planClean } from './clean-plan.service.js'
import type { CleanRule } from './storage.schema.js'

let deps: TestDeps | undefined
afterEach(() => {
  deps?.cleanup()
  deps = undefined
})

const DAY = 24 * 60 * 60 * 1000

/**
 * The plan as the per-session path computes it: `pruning.sessionPlan` for every idle session and,
 * with a size rule, `pruning.preview` of every candidate message (what the clean-up plan did before
 * it asked the live guard once and read the candidates in one pass).
 */
async function planSessionBySession(d: TestDeps, rule: CleanRule) {
  const caller = createCaller({ deps: d })
  const cutoff = d.clock.now() - rule.idleDays * DAY
  const sessions = d.opencode.db.read(() => d.opencode.stores.all.flatMap((store) =>
    store.listSessions(d.opencode.db, { includeArchived: true, rootsOnly: false, limit: 100_000 }).filter((s) => s.timeUpdated <= cutoff)))
  sessions.sort((a, b) => a.timeUpdated - b.timeUpdated || a.id.localeCompare(b.id) || a.storage.localeCompare(b.storage))
  const all: { storage: string; sessionID: string; targets: { messageID: string; revision: string; indexes: number[] | null; parts: number; bytes: number; tokens: number }[] }[] = []
  for (const s of sessions) {
    const plan = await caller.pruning.sessionPlan({ sessionID: s.id, storage: s.storage })
    if (plan.block) continue
    const targets = []
    for (const c of plan.candidates) {
      if (!rule.minToolOutputKB) {
        targets.push({ messageID: c.messageID, revision: c.revision, indexes: null, parts: c.toolCount + c.reasoningCount, bytes: c.bytes, tokens: c.tokens })
        continue
      }
      const preview = await caller.pruning.preview({ sessionID: s.id, storage: s.storage, messageID: c.messageID })
      if (preview.status !== 'preview') continue
      const parts = preview.parts.filter((p) => p.type === 'tool' && p.bytes >= (rule.minToolOutputKB ?? 0) * 1024)
      if (parts.length === 0) continue
      targets.push({ messageID: c.messageID, revision: preview.revision, indexes: parts.map((p) => p.index), parts: parts.length, bytes: parts.reduce((n, p) => n + p.bytes, 0), tokens: parts.reduce((n, p) => n + p.tokens, 0) })
    }
    if (targets.length > 0) all.push({ storage: s.storage, sessionID: s.id, targets })
  }
  const hash = createHash('sha256')
  for (const s of all) for (const t of s.targets) hash.update(JSON.stringify([s.storage, s.sessionID, t.messageID, t.revision, t.indexes]))
  return { fingerprint: hash.digest('hex'), all }
}

async function expectSamePlan(d: TestDeps, rules: CleanRule[]) {
  const newest = d.opencode.db.read(() => Math.max(...d.opencode.stores.all.flatMap((store) =>
    store.listSessions(d.opencode.db, { includeArchived: true, rootsOnly: false, limit: 100_000 }).map((s) => s.timeUpdated))))
  d.clock = fixedClock(newest + 10 * DAY)
  let planned = 0
  for (const rule of rules) {
    const plan = await planClean(d, rule)
    const reference = await planSessionBySession(d, rule)
    expect(plan.all.map((s) => ({ storage: s.storage, sessionID: s.sessionID, targets: s.targets }))).toEqual(reference.all)
    expect(plan.fingerprint).toBe(reference.fingerprint)
    planned += plan.parts
  }
  expect(planned).toBeGreaterThan(0)
}

describe('planClean', () => {
  it('plans what the per-session plans and previews plan, on the real OpenCode fixture (1.x and 1.18 experimental rows)', async () => {
    deps = await createTestDeps((await realFixture()).db)
    await expectSamePlan(deps, [{ idleDays: 7 }, { idleDays: 7, minToolOutputKB: 1 }, { idleDays: 7, minToolOutputKB: 4 }])
  })

  it.each(['fresh', 'upgraded'] as const)('plans what the per-session path plans on a %s 2.x file of current shapes', async (variant) => {
    const manifest = buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant, shape: 'current' })
    deps = await createTestDeps(manifest.file)
    await expectSamePlan(deps, [{ idleDays: 7 }, { idleDays: 7, minToolOutputKB: 1 }])
  })
})
