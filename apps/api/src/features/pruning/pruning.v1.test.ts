import type Database from 'better-sqlite3'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type RealFixture, type TestDeps } from '../../../test/harness.js'
import { byTable, diffSnapshots, snapshotDb } from '../../../test/fixtures/pruning/db-snapshot.js'
import { fixtureIds } from '../../../test/fixtures/pruning/fixture-ids.js'
import { minimalV1Part } from '../../store/minimal-v1-part.js'
import { collectPruned, readMessage, withRaw, type Caller } from '../../../test/fixtures/pruning/prune-helpers.js'

// The "tour" session of the real fixture: reasoning, text, two tools, then more turns.
let SESSION = ''
let MESSAGE = '' // step-start, reasoning, text, tool, tool, step-finish

describe('pruning 1.x storage (real OpenCode 1.18.33 database)', () => {
  let fixture: RealFixture
  let deps: TestDeps
  let caller: Caller

  beforeAll(async () => {
    fixture = await realFixture()
    const ids = fixtureIds(fixture.dir)
    SESSION = ids.tour
    MESSAGE = ids.tourMessage
  })
  beforeEach(async () => {
    deps = await createTestDeps(fixture.db)
    caller = createCaller({ deps })
  })
  afterEach(() => deps.cleanup())

  it('previews the technical parts with bytes, tokens and the revision the UI computes', async () => {
    const { revision, content } = await readMessage(caller, SESSION, MESSAGE, 'v1')
    const preview = await caller.pruning.preview({ sessionID: SESSION, messageID: MESSAGE })
    expect(preview).toMatchObject({ status: 'preview', revision, liveMutation: true, storageOnly: false, live: { state: 'allowed', basis: 'not_held' } })
    if (preview.status !== 'preview') return
    expect(preview.parts.map((p) => [p.index, p.type, p.tool ?? null])).toEqual([[1, 'reasoning', null], [3, 'tool', 'bash'], [4, 'tool', 'glob']])
    expect(preview.parts.every((p) => p.bytes === Buffer.byteLength(JSON.stringify(content[p.index])) && p.tokens > 0)).toBe(true)
  })

  it('prunes a tool and a reasoning part: rows gone, their events redacted, removals appended, nothing else touched', async () => {
    const before = await readMessage(caller, SESSION, MESSAGE, 'v1')
    const removed = [before.content[1], before.content[3]] as Array<{ id: string; type: string; callID?: string; tool?: string; time?: { start: number } }>
    const seqBefore = withRaw(deps, (db) => db.prepare(`SELECT seq FROM event_sequence WHERE aggregate_id = ?`).pluck().get(SESSION) as number)
    const partEvents = withRaw(deps, (db) => db.prepare(
      `SELECT 'event:' || rowid FROM event WHERE type = 'message.part.updated.1' AND json_extract(data, '$.part.id') IN (?, ?)`).pluck().all(removed[0]!.id, removed[1]!.id) as string[])
    const snapshot = snapshotDb(deps.opencode.path)

    const { value: result, events } = await collectPruned(deps, () =>
      caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision: before.revision, indexes: [3, 1] }))

    const after = await readMessage(caller, SESSION, MESSAGE, 'v1')
    expect(result).toEqual({ status: 'pruned', messageID: MESSAGE, revision: after.revision, removedCount: 2 })
    expect(events).toEqual([{ sessionID: SESSION, messageID: MESSAGE, revision: after.revision, storage: 'v1' }])
    expect(after.content).toEqual(before.content.filter((_, i) => i !== 1 && i !== 3))

    const diff = diffSnapshots(snapshot, snapshotDb(deps.opencode.path))
    expect(byTable(diff.removed)).toEqual({ part: 2 })
    // Only those parts' events change (an event that already held the empty form stays as it was).
    expect(byTable(diff.changed.filter((k) => !partEvents.includes(k)))).toEqual({ event_sequence: 1 })
    expect(byTable(diff.changed).event).toBeGreaterThan(3)
    expect(byTable(diff.added)).toEqual({ event: 2, loupe_prune_receipt: 1 })

    withRaw(deps, (db) => {
      expect(db.prepare(`SELECT seq FROM event_sequence WHERE aggregate_id = ?`).pluck().get(SESSION)).toBe(seqBefore + 2)
      const appended = db.prepare(`SELECT seq, type, data FROM event WHERE aggregate_id = ? AND seq > ? ORDER BY seq`).all(SESSION, seqBefore)
      expect(appended).toEqual([
        { seq: seqBefore + 1, type: 'message.part.removed.1', data: JSON.stringify({ sessionID: SESSION, messageID: MESSAGE, partID: removed[0]!.id }) },
        { seq: seqBefore + 2, type: 'message.part.removed.1', data: JSON.stringify({ sessionID: SESSION, messageID: MESSAGE, partID: removed[1]!.id }) },
      ])
      const redacted = db.prepare(`SELECT json_extract(data, '$.part') FROM event WHERE type = 'message.part.updated.1' AND json_extract(data, '$.part.id') = ?`).pluck()
      const ids = { sessionID: SESSION, messageID: MESSAGE }
      for (const text of redacted.all(removed[0]!.id)) {
        expect(JSON.parse(text as string)).toEqual({ id: removed[0]!.id, ...ids, type: 'reasoning', text: '', time: { start: removed[0]!.time!.start } })
      }
      for (const text of redacted.all(removed[1]!.id)) {
        expect(JSON.parse(text as string)).toEqual({ id: removed[1]!.id, ...ids, type: 'tool', callID: removed[1]!.callID, tool: 'bash', state: { status: 'pending', input: {}, raw: '' } })
      }
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
      expect(db.pragma('foreign_key_check')).toEqual([])
    })
  })

  it('writes each redacted event, as text, byte for byte as json_set would: read in the first scan, known from it, or appended since', async () => {
    const { content } = await readMessage(caller, SESSION, MESSAGE, 'v1')
    const [reasoning, first, second] = [content[1], content[3], content[4]] as Array<Record<string, unknown> & { id: string }>
    const eventsOf = (db: Database.Database, partID: string) =>
      db.prepare(`SELECT id, data FROM event WHERE aggregate_id = ? AND type = 'message.part.updated.1' AND json_extract(data, '$.part.id') = ? ORDER BY seq`).all(SESSION, partID) as { id: string; data: string }[]
    const expected = new Map<string, Buffer>()
    const expect_ = (db: Database.Database, part: Record<string, unknown> & { id: string }) => {
      for (const event of eventsOf(db, part.id)) {
        expected.set(event.id, db.prepare(`SELECT CAST(json_set(?, '$.part', json(?)) AS BLOB)`).pluck().get(event.data, JSON.stringify(minimalV1Part(part))) as Buffer)
      }
    }
    withRaw(deps, (db) => [reasoning!, first!, second!].forEach((part) => expect_(db, part)))
    const pruneByID = async (partID: string) => {
      const now = await readMessage(caller, SESSION, MESSAGE, 'v1')
      const index = now.content.findIndex((p) => (p as { id: string }).id === partID)
      expect(await caller.pruning.prune({ sessionID: SESSION, messageID: MESSAGE, revision: now.revision, indexes: [index] })).toMatchObject({ status: 'pruned' })
    }
    await pruneByID(first!.id) // the locator's first scan of the session
    await pruneByID(reasoning!.id) // events the locator knows from that scan
    withRaw(deps, (db) => {
      // OpenCode appends another update of the last part after Loupe's scan.
      const [last] = eventsOf(db, second!.id).slice(-1)
      const seq = (db.prepare(`SELECT seq FROM event_sequence WHERE aggregate_id = ?`).pluck().get(SESSION) as number) + 1
      db.prepare(`UPDATE event_sequence SET seq = ? WHERE aggregate_id = ?`).run(seq, SESSION)
      db.prepare(`INSERT INTO event (id, aggregate_id, seq, type, data) VALUES ('evt_ffffffffffffappendedbyoc', ?, ?, 'message.part.updated.1', ?)`).run(SESSION, seq, last!.data)
      expect_(db, second!)
    })
    await pruneByID(second!.id)
    withRaw(deps, (db) => {
      expect(expected.size).toBeGreaterThan(4)
      for (const [id, bytes] of expected) {
        expect(db.prepare(`SELECT typeof(data) AS type, CAST(data AS BLOB) AS bytes FROM event WHERE id = ?`).get(id)).toEqual({ type: 'text', bytes })
      }
    })
  })

  it('removes every technical part of a whole session through sessionPlan and pruneBatch', async () => {
    const plan = await caller.pruning.sessionPlan({ sessionID: SESSION })
    expect(plan.block).toBeNull()
    const kinds = withRaw(deps, (db) => db.prepare(`SELECT json_extract(data, '$.type') FROM part WHERE session_id = ?`).pluck().all(SESSION))
    expect(plan.totals).toMatchObject({ tools: kinds.filter((k) => k === 'tool').length, reasoning: kinds.filter((k) => k === 'reasoning').length })
    expect(plan.totals.candidates).toBeGreaterThan(2)
    // Each candidate names its tools (as stored) and when it finished, which the review dialog shows.
    const tools = withRaw(deps, (db) => db.prepare(`SELECT DISTINCT json_extract(data, '$.tool') FROM part WHERE session_id = ? AND json_extract(data, '$.type') = 'tool' ORDER BY 1`).pluck().all(SESSION))
    expect([...new Set(plan.candidates.flatMap((c) => c.tools))].sort()).toEqual(tools)
    const completed = withRaw(deps, (db) => db.prepare(`SELECT id, json_extract(data, '$.time.completed') FROM message WHERE session_id = ?`).raw().all(SESSION) as [string, number][])
    expect(plan.candidates.map((c) => c.completedAt)).toEqual(plan.candidates.map((c) => new Map(completed).get(c.messageID)))
    const { results } = await caller.pruning.pruneBatch({ sessionID: SESSION, candidates: plan.candidates.map((c) => ({ messageID: c.messageID, revision: c.revision })) })
    expect(results.map((r) => r.result.status)).toEqual(['pruned', 'pruned', 'pruned', 'pruned'])
    expect(results.map((r) => (r.result.status === 'pruned' ? r.result.removedCount : 0))).toEqual(plan.candidates.map((c) => c.toolCount + c.reasoningCount))
    const again = await caller.pruning.sessionPlan({ sessionID: SESSION })
    expect(again.totals).toMatchObject({ candidates: 0, tools: 0, reasoning: 0, bytes: 0 })
    const parts = withRaw(deps, (db) => db.prepare(`SELECT json_extract(data, '$.type') FROM part WHERE session_id = ?`).pluck().all(SESSION))
    expect(parts.filter((t) => t === 'tool' || t === 'reasoning')).toEqual([])
    expect(parts.filter((t) => t === 'text').length).toBeGreaterThan(2)
  })

  it('answers conflict for a batch candidate whose message changed since the plan, and prunes the others', async () => {
    const plan = await caller.pruning.sessionPlan({ sessionID: SESSION })
    const [first, second] = plan.candidates
    await caller.pruning.prune({ sessionID: SESSION, messageID: first!.messageID, revision: first!.revision, indexes: [(await caller.pruning.preview({ sessionID: SESSION, messageID: first!.messageID }) as { parts: { index: number }[] }).parts[0]!.index] })
    const { results } = await caller.pruning.pruneBatch({ sessionID: SESSION, candidates: [first!, second!].map((c) => ({ messageID: c.messageID, revision: c.revision })) })
    expect(results.map((r) => [r.messageID, r.result.status === 'blocked' ? r.result.reason : r.result.status])).toEqual([
      [first!.messageID, 'conflict'],
      [second!.messageID, 'pruned'],
    ])
  })
})
