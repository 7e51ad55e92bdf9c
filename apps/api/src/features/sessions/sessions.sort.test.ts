import path from 'node:path'
import Database from 'better-sqlite3'
import { SESSION_SORTS, SORT_ORDERS, type SessionSort } from '@loupe/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildV2Fixture } from '../../../test/fixtures/v2-fixture.js'
import { createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'

type Caller = ReturnType<typeof createCaller>
type Listed = Awaited<ReturnType<Caller['sessions']['list']>>['sessions'][number]

const bytesOf = (s: Listed) => s.stats.bytes.messages + s.stats.bytes.parts + s.stats.bytes.events
const tokensOf = (s: Listed) => s.tokens.input + s.tokens.output + s.tokens.reasoning + s.tokens.cacheRead + s.tokens.cacheWrite
const VALUE: Record<SessionSort, (s: Listed) => number> = {
  updated: (s) => s.timeUpdated,
  size: bytesOf,
  eventBytes: (s) => s.stats.bytes.events,
  tokens: tokensOf,
  cost: (s) => s.cost,
  messages: (s) => s.stats.messages,
}
const key = (s: Listed) => `${s.storage}:${s.id}`

async function walk(caller: Caller, input: { sort: SessionSort; order: 'asc' | 'desc' }, limit: number) {
  const seen: Listed[] = []
  let page = await caller.sessions.list({ ...input, includeArchived: true, limit })
  seen.push(...page.sessions)
  for (let guard = 0; page.cursor && guard < 1000; guard++) {
    page = await caller.sessions.list({ ...input, includeArchived: true, limit, cursor: page.cursor })
    expect(page.sessions.length).toBeLessThanOrEqual(limit)
    seen.push(...page.sessions)
  }
  return { seen, totals: page.totals }
}

const CASES = [
  { name: '1.x with 1.18 experimental 2.x rows, written by real OpenCode', open: async () => (await realFixture()).db },
  { name: 'an upgraded 2.x file (both generations, shared ids)', open: async () => buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant: 'upgraded', seed: 4 }).file },
]

describe.each(CASES)('sessions.list sorted: $name', ({ open }) => {
  let deps: TestDeps
  let caller: Caller

  beforeAll(async () => {
    deps = await createTestDeps(await open())
    caller = createCaller({ deps })
  })
  afterAll(() => deps?.cleanup())

  it.each(SESSION_SORTS.flatMap((sort) => SORT_ORDERS.map((order) => ({ sort, order }))))(
    'pages by $sort $order in pages of two with no duplicate or gap, ties broken by id, with exact totals',
    async (input) => {
      const { seen, totals } = await walk(caller, input, 2)
      const whole = await caller.sessions.list({ ...input, includeArchived: true, limit: 200 })
      expect(seen.map(key)).toEqual(whole.sessions.map(key))
      expect(new Set(seen.map(key)).size).toBe(seen.length)
      expect(new Set(seen.map((s) => s.storage)).size).toBe(2)
      const sign = input.order === 'desc' ? -1 : 1
      for (let i = 1; i < seen.length; i++) {
        const [a, b] = [seen[i - 1]!, seen[i]!]
        const diff = sign * (VALUE[input.sort](b) - VALUE[input.sort](a))
        expect(diff, `${key(a)} then ${key(b)}`).toBeGreaterThanOrEqual(0)
        if (diff === 0 && a.id !== b.id) expect(sign * (b.id < a.id ? -1 : 1)).toBe(1)
      }
      expect(totals.sessions).toBe(seen.length)
      expect(totals.bytes).toBe(seen.reduce((n, s) => n + bytesOf(s), 0))
      expect(totals.tokens).toBe(seen.reduce((n, s) => n + tokensOf(s), 0))
      expect(totals.cost).toBeCloseTo(seen.reduce((n, s) => n + s.cost, 0), 9)
    },
  )

  it("lists each session with the same stats its own page reads, and the project menu's counts add up to the list's total", async () => {
    const whole = await caller.sessions.list({ includeArchived: true, limit: 200 })
    for (const s of whole.sessions) {
      const { session } = await caller.sessions.get({ sessionID: s.id, storage: s.storage })
      expect(s.stats, key(s)).toEqual(session.stats)
    }
    for (const toggles of [{}, { rootsOnly: true }, { includeArchived: true }, { includeArchived: true, rootsOnly: true }]) {
      const projects = await caller.sessions.projects(toggles)
      const { totals } = await caller.sessions.list({ ...toggles, limit: 1 })
      expect(projects.reduce((n, p) => n + p.sessions, 0), JSON.stringify(toggles)).toBe(totals.sessions)
      for (const p of projects.slice(0, 3)) {
        const one = await caller.sessions.list({ ...toggles, projectID: p.id, limit: 1 })
        expect(one.totals.sessions).toBe(p.sessions)
      }
    }
  })

  it('refuses a cursor issued for another sort or order', async () => {
    const page = await caller.sessions.list({ sort: 'size', order: 'desc', includeArchived: true, limit: 1 })
    expect(page.cursor).not.toBeNull()
    await expect(caller.sessions.list({ sort: 'size', order: 'asc', includeArchived: true, cursor: page.cursor! })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await expect(caller.sessions.list({ sort: 'messages', includeArchived: true, cursor: page.cursor! })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })

  it("follows another connection's writes: a new message in OpenCode's way, and a row rewritten without a stamp", async () => {
    const before = await caller.sessions.list({ sort: 'size', order: 'asc', includeArchived: true, limit: 200 })
    const target = before.sessions[0]!
    const other = new Database(deps.opencode.path)
    try {
      const padding = 'x'.repeat(50_000)
      if (target.storage === 'v1') {
        // As OpenCode's commitDurableEvent: the projector's row, the sequence, then the event.
        other.transaction(() => {
          other.prepare(`INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_sorttest0000000000000001', ?, 1, 1, ?)`)
            .run(target.id, JSON.stringify({ role: 'user', time: { created: 1 }, note: padding }))
          const seq = ((other.prepare(`SELECT seq FROM event_sequence WHERE aggregate_id = ?`).pluck().get(target.id) as number | undefined) ?? -1) + 1
          other.prepare(`INSERT INTO event_sequence (aggregate_id, seq) VALUES (?, ?) ON CONFLICT (aggregate_id) DO UPDATE SET seq = excluded.seq`).run(target.id, seq)
          other.prepare(`INSERT INTO event (id, aggregate_id, seq, type, data) VALUES ('evt_sorttest0000000000000001', ?, ?, 'message.updated.1', ?)`)
            .run(target.id, seq, JSON.stringify({ note: padding }))
        })()
      } else {
        other.prepare(`UPDATE session_message SET data = json_set(data, '$.note', ?) WHERE id = (SELECT id FROM session_message WHERE session_id = ? LIMIT 1)`)
          .run(padding, target.id)
      }
    } finally {
      other.close()
    }
    const after = await caller.sessions.list({ sort: 'size', order: 'desc', includeArchived: true, limit: 200 })
    const moved = after.sessions.find((s) => key(s) === key(target))!
    const { session } = await caller.sessions.get({ sessionID: target.id, storage: target.storage })
    expect(moved.stats).toEqual(session.stats)
    expect(bytesOf(moved)).toBeGreaterThan(bytesOf(target) + 50_000)
    expect(after.totals.bytes - before.totals.bytes).toBe(bytesOf(moved) - bytesOf(target))
  })
})

describe("sessions.list after Loupe's own writes", () => {
  it('shows a pruned session at its new size, the same as its own page', async () => {
    const deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    try {
      const before = await caller.sessions.list({ sort: 'size', includeArchived: true, limit: 200 })
      let pruned: Listed | undefined
      for (const s of before.sessions) {
        const plan = await caller.pruning.sessionPlan({ sessionID: s.id, storage: s.storage })
        const candidate = plan.block === null ? plan.candidates[0] : undefined
        if (!candidate) continue
        const preview = await caller.pruning.preview({ sessionID: s.id, storage: s.storage, messageID: candidate.messageID })
        if (preview.status !== 'preview') continue
        const answer = await caller.pruning.prune({ sessionID: s.id, storage: s.storage, messageID: candidate.messageID, revision: preview.revision, indexes: preview.parts.map((p) => p.index) })
        expect(answer.status).toBe('pruned')
        pruned = s
        break
      }
      expect(pruned).toBeDefined()
      const after = await caller.sessions.list({ sort: 'size', includeArchived: true, limit: 200 })
      const listed = after.sessions.find((s) => key(s) === key(pruned!))!
      const { session } = await caller.sessions.get({ sessionID: pruned!.id, storage: pruned!.storage })
      expect(listed.stats).toEqual(session.stats)
      expect(bytesOf(listed)).not.toBe(bytesOf(pruned!))
      expect(after.totals.bytes - before.totals.bytes).toBe(bytesOf(listed) - bytesOf(pruned!))
    } finally {
      deps.cleanup()
    }
  })

  it('shows the smaller event logs after compaction, which rewrites events without advancing their sequence', async () => {
    const deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    try {
      const before = await caller.sessions.list({ sort: 'eventBytes', includeArchived: true, limit: 200 })
      const done = await caller.storage.compact({ dryRun: false })
      expect(done.status).toBe('done')
      const after = await caller.sessions.list({ sort: 'eventBytes', includeArchived: true, limit: 200 })
      expect(after.totals.bytes).toBeLessThan(before.totals.bytes)
      for (const s of after.sessions) {
        const { session } = await caller.sessions.get({ sessionID: s.id, storage: s.storage })
        expect(s.stats, key(s)).toEqual(session.stats)
      }
    } finally {
      deps.cleanup()
    }
  })
})
