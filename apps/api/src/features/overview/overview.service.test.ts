import path from 'node:path'
import Database from 'better-sqlite3'
import { DAY_MS, totalTokens } from '@loupe/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixedClock } from '../../lib/clock.js'
import { buildV2Fixture } from '../../../test/fixtures/v2-fixture.js'
import { createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { summarizeFileUsage } from './overview.service.js'
import { summarizeUsageInput } from './overview.schema.js'

type Caller = ReturnType<typeof createCaller>

/** Every session's "Tokens used" and "Cost" as its Bytes tab shows them. */
async function bytesTabTotals(caller: Caller) {
  const { sessions } = await caller.sessions.list({ includeArchived: true, limit: 200 })
  let tokens = 0
  let cost = 0
  const bySession = new Map<string, number>()
  for (const s of sessions) {
    const { usage } = await caller.sessions.breakdown({ sessionID: s.id, storage: s.storage })
    const t = totalTokens(usage.tokens)
    bySession.set(`${s.storage}:${s.id}`, t)
    tokens += t
    cost += usage.cost
  }
  return { tokens, cost, bySession, storages: new Set(sessions.map((s) => s.storage)) }
}

const lastMessageAt = (file: string) => {
  const db = new Database(file, { readonly: true })
  const v1 = (db.prepare(`SELECT max(time_created) AS t FROM message`).get() as { t: number | null }).t ?? 0
  const v2 = (db.prepare(`SELECT max(time_created) AS t FROM session_message`).get() as { t: number | null }).t ?? 0
  db.close()
  return Math.max(v1, v2)
}

const CASES = [
  { name: '1.x with 1.18 experimental 2.x rows, written by real OpenCode', open: async () => (await realFixture()).db },
  { name: 'an upgraded 2.x file (both generations, shared ids)', open: async () => buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant: 'upgraded', seed: 4 }).file },
]

describe.each(CASES)('overview.usage: $name', ({ open }) => {
  let deps: TestDeps
  let caller: Caller
  let last: number

  beforeAll(async () => {
    deps = await createTestDeps(await open())
    last = lastMessageAt(deps.opencode.path)
    deps.clock = fixedClock(last + 2 * DAY_MS)
    caller = createCaller({ deps })
  })
  afterAll(() => deps?.cleanup())

  it("adds up, over all time, to the sessions' Bytes tabs, except for the sessions it names, in both generations", async () => {
    const usage = await caller.overview.usage({ days: null })
    const tabs = await bytesTabTotals(caller)
    expect(tabs.storages).toEqual(new Set(['v1', 'v2']))
    expect(usage.totals.totalTokens).toBeGreaterThan(0)
    expect(usage.series.reduce((n, s) => n + s.totalTokens, 0)).toBe(usage.totals.totalTokens)
    // Where they differ, it is OpenCode's own doing (1.18's experimental engine leaves its session totals at 0;
    // a 2.x import drops subtask messages but keeps their tokens in the totals), and the overview says which.
    const { agreement } = usage
    expect(agreement.differing).toBe(agreement.examples.length)
    expect(agreement.sessionTokens).toBe(tabs.tokens)
    expect(agreement.messageTokens).toBe(usage.totals.totalTokens)
    const named = new Set(agreement.examples.map((e) => `${e.storage}:${e.id}`))
    for (const e of agreement.examples) expect(e.sessionTokens).toBe(tabs.bySession.get(`${e.storage}:${e.id}`))
    const gap = agreement.examples.reduce((n, e) => n + e.sessionTokens - e.messageTokens, 0)
    expect(usage.totals.totalTokens).toBe(tabs.tokens - gap)
    const agreeing = usage.topSessions.filter((s) => !named.has(`${s.storage}:${s.id}`))
    expect(agreeing.length).toBeGreaterThan(3)
    for (const s of agreeing) expect(s.tokens).toBe(tabs.bySession.get(`${s.storage}:${s.id}`))
    expect(new Set(usage.topSessions.map((s) => s.storage))).toEqual(new Set(['v1', 'v2']))
  })

  it('stacks by model or by project, per day or per ISO week, with local midnights as bucket starts', async () => {
    const byModel = await caller.overview.usage({ days: 30, groupBy: 'model', tzOffsetMinutes: 330 })
    expect(byModel.buckets).toHaveLength(30)
    expect(byModel.series.length).toBeGreaterThan(0)
    for (const b of byModel.buckets) expect((b.start + 330 * 60_000) % DAY_MS).toBe(0)
    const byProject = await caller.overview.usage({ days: 30, groupBy: 'project', interval: 'week', tzOffsetMinutes: -480 })
    expect(byProject.buckets.length).toBeGreaterThanOrEqual(5)
    expect(byProject.buckets.length).toBeLessThanOrEqual(6)
    expect(byProject.totals.totalTokens).toBe(byModel.totals.totalTokens)
    const projects = deps.opencode.stores.projects(deps.opencode.db).map((p) => p.name || (p.worktree === '/' ? 'global' : path.basename(p.worktree)))
    for (const s of byProject.series) expect(projects).toContain(s.label)
    const perBucket = byProject.bucketTokens.map(totalTokens)
    expect(perBucket).toEqual(byProject.buckets.map((_, i) => byProject.series.reduce((n, s) => n + s.tokens[i]!, 0)))
  })

  it('shows nothing for a range that ends before the first message', async () => {
    const later = createCaller({ deps: { ...deps, clock: fixedClock(last + 400 * DAY_MS) } })
    const usage = await later.overview.usage({ days: 365 })
    expect(usage.series).toEqual([])
    expect(usage.totals.totalTokens).toBe(0)
    expect(usage.topSessions).toEqual([])
  })
})

describe('summarizeFileUsage', () => {
  let deps: TestDeps
  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
  })
  afterAll(() => deps?.cleanup())

  it("sees a message another connection committed, as OpenCode does, advancing the session's seq (only that session is read again)", () => {
    deps.clock = fixedClock(lastMessageAt(deps.opencode.path) + DAY_MS)
    const input = summarizeUsageInput.parse({ days: 30 })
    const before = summarizeFileUsage(deps, input)
    const other = new Database(deps.opencode.path)
    const row = other.prepare(`SELECT id, session_id, time_created, data FROM message WHERE json_extract(data, '$.role') = 'assistant' LIMIT 1`).get() as {
      id: string; session_id: string; time_created: number; data: string
    }
    const data = { ...JSON.parse(row.data), modelID: 'added-model', tokens: { input: 1000, output: 1, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0.5 }
    other.prepare(`INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)`)
      .run(`${row.id}x`, row.session_id, row.time_created, row.time_created, JSON.stringify(data))
    other.prepare(`UPDATE event_sequence SET seq = seq + 1 WHERE aggregate_id = ?`).run(row.session_id)
    other.close()
    const after = summarizeFileUsage(deps, input)
    expect(after.totals.totalTokens).toBe(before.totals.totalTokens + 1001)
    expect(after.series.find((s) => s.label === 'added-model')?.totalTokens).toBe(1001)
    expect(after.agreement.differing).toBe(before.agreement.differing + 1)
    const other2 = new Database(deps.opencode.path)
    other2.prepare(`DELETE FROM message WHERE id = ?`).run(`${row.id}x`)
    other2.prepare(`UPDATE event_sequence SET seq = seq + 1 WHERE aggregate_id = ?`).run(row.session_id)
    other2.close()
    expect(summarizeFileUsage(deps, input)).toEqual(before)
  })

  it('sums a half-hour offset from the kept minutes into the days a direct grouping of the messages gives', () => {
    const offset = 5 * 60 + 45
    const { db, stores } = deps.opencode
    db.read(() => stores.usage.read(db, 0))
    const cells = db.read(() => stores.usage.read(db, offset)).cells.filter((c) => c.storage === 'v1')
    const got = new Map<string, string>()
    for (const c of cells) {
      const key = `${c.day}:${c.sessionID}`
      const [messages, output] = (got.get(key) ?? '0:0').split(':').map(Number)
      got.set(key, `${messages! + c.messages}:${output! + c.tokens.output}`)
    }
    const rows = db.allSql<{ day: number; session_id: string; messages: number; output: number }>(
      `SELECT (time_created + CAST(? AS INTEGER)) / 86400000 AS day, session_id, count(*) AS messages, coalesce(sum(json_extract(data, '$.tokens.output')), 0) AS output
       FROM message WHERE json_extract(data, '$.role') = 'assistant' GROUP BY 1, 2`,
      [offset * 60_000],
    )
    const sessions = new Set(cells.map((c) => c.sessionID))
    const want = new Map(rows.filter((r) => sessions.has(r.session_id)).map((r) => [`${r.day}:${r.session_id}`, `${r.messages}:${r.output}`]))
    expect(got.size).toBeGreaterThan(1)
    expect(got).toEqual(want)
  })

  it('answers a second offset with the same totals and its own days', () => {
    const input = summarizeUsageInput.parse({ days: null })
    const utc = summarizeFileUsage(deps, input)
    const east = summarizeFileUsage(deps, { ...input, tzOffsetMinutes: 14 * 60 })
    expect(east.totals).toEqual(utc.totals)
    expect((east.buckets.at(-1)?.date ?? "") >= (utc.buckets.at(-1)?.date ?? "")).toBe(true)
  })
})
