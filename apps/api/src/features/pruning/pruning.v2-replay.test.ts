import type Database from 'better-sqlite3'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, TEST_NOW, type TestDeps } from '../../../test/harness.js'
import { diffSnapshots, snapshotDb } from '../../../test/fixtures/pruning/db-snapshot.js'
import { readMessage, withRaw } from '../../../test/fixtures/pruning/prune-helpers.js'
import { buildV2Fixture, type V2Shape } from '../../../test/fixtures/v2-fixture.js'
import { decoderProblems, projectAssistants, type ReplayEvent } from '../../../test/fixtures/v2-projector.js'

type Json = Record<string, any>

const eventsOf = (db: Database.Database, sessionID: string): ReplayEvent[] =>
  (db.prepare(`SELECT seq, type, created, data FROM event WHERE aggregate_id = ? ORDER BY seq`).all(sessionID) as { seq: number; type: string; created: number; data: string }[])
    .map((e) => ({ ...e, data: JSON.parse(e.data) as Json }))

const assistantRows = (db: Database.Database, sessionID: string) =>
  (db.prepare(`SELECT id, data FROM session_message WHERE session_id = ? AND type = 'assistant' ORDER BY seq`).all(sessionID) as { id: string; data: string }[])
    .map((r) => ({ id: r.id, data: JSON.parse(r.data) as Json }))

/** The strings a removed item carries that a replay or a sync could bring back: its input, output and reasoning. */
function prunedStrings(items: Json[]): string[] {
  const out = new Set<string>()
  const walk = (v: unknown) => {
    if (typeof v === 'string' && v.length >= 8) out.add(v)
    else if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') Object.values(v).forEach(walk)
  }
  for (const item of items) {
    if (item.type === 'reasoning') walk(item.text)
    if (item.type === 'tool') {
      walk(item.state?.input)
      walk(item.state?.content)
      walk(item.state?.metadata)
      walk(item.state?.structured)
    }
  }
  return [...out]
}

describe.each<V2Shape>(['july', 'current'])('a 2.x prune replays exactly (%s shapes)', (shape) => {
  let deps: TestDeps | undefined
  afterEach(() => {
    deps?.cleanup()
    deps = undefined
  })

  async function open() {
    const manifest = buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant: 'fresh', shape })
    const main = manifest.sessions.find((s) => s.key === 'main')
    if (!main) throw new Error('no main session')
    deps = await createTestDeps(manifest.file)
    return { deps, caller: createCaller({ deps }), sessionID: main.id }
  }

  it('the unpruned log replays to the stored rows (the fixture and the test projector agree)', async () => {
    const { deps, sessionID } = await open()
    withRaw(deps, (db) => {
      const projected = projectAssistants(eventsOf(db, sessionID))
      const rows = assistantRows(db, sessionID)
      expect(rows.length).toBeGreaterThan(4)
      for (const row of rows) expect(projected.get(row.id)).toMatchObject({ content: row.data.content, finish: row.data.finish, tokens: row.data.tokens })
    })
  })

  it('after pruning one item, then the rest, the replay equals every pruned row and no event holds a pruned string', async () => {
    const { deps, caller, sessionID } = await open()
    const plan = await caller.pruning.sessionPlan({ sessionID, storage: 'v2' })
    expect(plan.block).toBeNull()
    const first = plan.candidates[0]
    if (!first) throw new Error('no candidate')
    const removed: Json[] = []
    // One item first: the later prune of the same message must rewrite this prune's content event too.
    const before = await readMessage(caller, sessionID, first.messageID, 'v2')
    const preview = await caller.pruning.preview({ sessionID, storage: 'v2', messageID: first.messageID })
    if (preview.status !== 'preview') throw new Error(JSON.stringify(preview))
    const index = preview.parts[0]!.index
    removed.push(before.content[index] as Json)
    expect(await caller.pruning.prune({ sessionID, storage: 'v2', messageID: first.messageID, revision: before.revision, indexes: [index] })).toMatchObject({ status: 'pruned' })

    const rest = await caller.pruning.sessionPlan({ sessionID, storage: 'v2' })
    for (const c of rest.candidates) {
      const { content } = await readMessage(caller, sessionID, c.messageID, 'v2')
      removed.push(...(content as Json[]).filter((item) => item.type === 'tool' || item.type === 'reasoning'))
    }
    const { results } = await caller.pruning.pruneBatch({ sessionID, storage: 'v2', candidates: rest.candidates.map((c) => ({ messageID: c.messageID, revision: c.revision })) })
    expect(results.every((r) => r.result.status === 'pruned')).toBe(true)
    expect((await caller.pruning.sessionPlan({ sessionID, storage: 'v2' })).totals.candidates).toBe(0)

    withRaw(deps, (db) => {
      const events = eventsOf(db, sessionID)
      const updates = events.filter((e) => e.type === 'session.message.content.updated.1')
      const pruned = new Set([first.messageID, ...rest.candidates.map((c) => c.messageID)])
      expect(updates.length).toBe(rest.candidates.length + 1)
      expect(new Set(updates.map((u) => u.data.messageID))).toEqual(pruned)
      // Appended at the next seqs, with the sequence row advanced and `created` set.
      const seqs = events.map((e) => e.seq)
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i))
      expect(db.prepare(`SELECT seq FROM event_sequence WHERE aggregate_id = ?`).pluck().get(sessionID)).toBe(seqs.at(-1))
      for (const u of updates) expect(u.created).toBe(TEST_NOW)

      const projected = projectAssistants(events)
      for (const row of assistantRows(db, sessionID)) expect(projected.get(row.id)?.content).toEqual(row.data.content)
      // Without the appended events, upstream's replay would bring the items back.
      const withoutUpdates = projectAssistants(events.filter((e) => e.type !== 'session.message.content.updated.1'))
      expect(withoutUpdates.get(first.messageID)?.content.length).toBeGreaterThan(projected.get(first.messageID)!.content.length)

      expect(decoderProblems(events)).toEqual([])
      const strings = prunedStrings(removed)
      expect(strings.length).toBeGreaterThan(3)
      const found = strings.filter((s) => (db.prepare(`SELECT count(*) FROM event WHERE aggregate_id = ? AND instr(data, ?) > 0`).pluck().get(sessionID, s) as number) > 0)
      expect(found).toEqual([])
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    })
  })

  it('appends nothing for a session whose log holds no events', async () => {
    const manifest = buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant: 'fresh', shape, contentEvents: false })
    const main = manifest.sessions.find((s) => s.key === 'main')!
    deps = await createTestDeps(manifest.file)
    const caller = createCaller({ deps })
    const plan = await caller.pruning.sessionPlan({ sessionID: main.id, storage: 'v2' })
    const { results } = await caller.pruning.pruneBatch({ sessionID: main.id, storage: 'v2', candidates: plan.candidates.map((c) => ({ messageID: c.messageID, revision: c.revision })) })
    expect(results.every((r) => r.result.status === 'pruned')).toBe(true)
    expect(withRaw(deps, (db) => db.prepare(`SELECT count(*) FROM event WHERE aggregate_id = ?`).pluck().get(main.id))).toBe(0)
  })
})

describe('a session stored in both generations (an upgraded file)', () => {
  let deps: TestDeps | undefined
  afterEach(() => {
    deps?.cleanup()
    deps = undefined
  })

  it.each<V2Shape>(['july', 'current'])('is refused in both copies with the reason, and nothing is written (%s shapes)', async (shape) => {
    const manifest = buildV2Fixture(path.join(tempDir(), 'opencode.db'), { variant: 'upgraded', shape, seed: 5 })
    deps = await createTestDeps(manifest.file)
    const caller = createCaller({ deps })
    const twice = manifest.sessions.filter((s) => s.key === 'imported' || s.key === 'diverged')
    expect(twice.map((s) => s.storage).sort()).toEqual(['v1', 'v1', 'v2', 'v2'])
    const snapshot = snapshotDb(deps.opencode.path)
    for (const s of twice) {
      const plan = await caller.pruning.sessionPlan({ sessionID: s.id, storage: s.storage })
      expect(plan.block).toMatchObject({ reason: 'unsupported_storage', detail: expect.stringContaining('stored twice') })
      const message = s.messages.find((m) => (m.storage === 'v2' ? m.message.type === 'assistant' : m.info.role === 'assistant'))!
      const { revision } = await readMessage(caller, s.id, message.id, s.storage)
      expect(await caller.pruning.prune({ sessionID: s.id, storage: s.storage, messageID: message.id, revision, indexes: [0] })).toMatchObject({ status: 'blocked', reason: 'unsupported_storage' })
    }
    expect(diffSnapshots(snapshot, snapshotDb(deps.opencode.path))).toEqual({ changed: [], added: [], removed: [] })

    // A session in one generation only is not fenced: the native 2.x one and the 1.x-only one.
    for (const key of ['main', 'v1-only'] as const) {
      const s = manifest.sessions.find((x) => x.key === key)!
      expect((await caller.pruning.sessionPlan({ sessionID: s.id, storage: s.storage })).block).toBeNull()
    }
  })
})
