import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { snapshotDb } from '../../../test/fixtures/pruning/db-snapshot.js'
import { compactEventLog, runCompaction, type CompactProgress } from './compact.service.js'

const V1_TYPES = ['session.created.1', 'session.updated.1', 'session.deleted.1', 'message.updated.1', 'message.removed.1', 'message.part.updated.1', 'message.part.removed.1']

type EventRow = { id: string; aggregate_id: string; seq: number; type: string; data: string }

const readEvents = (file: string): EventRow[] => {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare(`SELECT id, aggregate_id, seq, type, data FROM event ORDER BY aggregate_id, seq`).all() as EventRow[]
  } finally {
    db.close()
  }
}

/** The entity a snapshot event is about, or null for other event types. */
const entityOf = (e: EventRow): string | null => {
  const data = JSON.parse(e.data) as { part?: { id: string }; info?: { id: string } }
  if (e.type === 'message.part.updated.1') return `${e.aggregate_id}/part/${data.part?.id}`
  if (e.type === 'message.updated.1') return `${e.aggregate_id}/message/${data.info?.id}`
  if (e.type === 'session.updated.1') return `${e.aggregate_id}/session`
  return null
}
const newestOf = (events: EventRow[]) => {
  const newest = new Map<string, EventRow>()
  for (const e of events) {
    const key = entityOf(e)
    if (key) newest.set(key, e)
  }
  return new Set([...newest.values()].map((e) => e.id))
}

describe('compactEventLog', () => {
  let deps: TestDeps | undefined
  afterEach(() => deps?.cleanup())

  it('reports in a dry run exactly what the write then does, and changes nothing itself', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    const before = snapshotDb(deps.opencode.path)
    const dry = await caller.storage.compact({ dryRun: true })
    expect(snapshotDb(deps.opencode.path)).toEqual(before)
    expect(dry.status).toBe('done')
    expect(dry.eventsRedacted).toBeGreaterThan(50)
    expect(dry.eventBytesAfter).toBeLessThan(dry.eventBytesBefore)
    expect(dry.refused).toEqual([])

    const done = await caller.storage.compact({ dryRun: false })
    expect(done).toMatchObject({ status: 'done', dryRun: false, eventsRedacted: dry.eventsRedacted, sessions: dry.sessions, eventBytesBefore: dry.eventBytesBefore })
    expect(done.eventBytesAfter).toBe(dry.eventBytesAfter)
    expect(done.perSession.map((s) => [s.sessionID, s.eventsRedacted, s.eventBytesAfter])).toEqual(dry.perSession.map((s) => [s.sessionID, s.eventsRedacted, s.eventBytesAfter]))
  })

  it('keeps every newest snapshot and every other event byte for byte, and the rows of message and part untouched', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const file = deps.opencode.path
    const events = readEvents(file)
    const newest = newestOf(events)
    const before = snapshotDb(file)
    const done = await compactEventLog(deps, { dryRun: false })
    const after = readEvents(file)
    expect(after.map(({ id, aggregate_id, seq, type }) => [id, aggregate_id, seq, type])).toEqual(events.map(({ id, aggregate_id, seq, type }) => [id, aggregate_id, seq, type]))
    let changed = 0
    for (const [i, e] of events.entries()) {
      const now = after[i]!
      if (now.data === e.data) continue
      changed++
      expect(entityOf(e), `${e.type} ${e.seq}`).not.toBeNull()
      expect(newest.has(e.id)).toBe(false)
      expect(now.data.length).toBeLessThan(e.data.length)
    }
    expect(changed).toBe(done.eventsRedacted)
    const snapshotAfter = snapshotDb(file)
    const differing = [...before.keys()].filter((k) => before.get(k) !== snapshotAfter.get(k))
    expect(differing.every((k) => k.startsWith('event:'))).toBe(true)
    // Unknown types (1.18's experimental `session.next.*` events) are counted and left.
    const unknown = events.filter((e) => !V1_TYPES.includes(e.type)).length
    expect(unknown).toBeGreaterThan(0)
    expect(done.perSession.reduce((n, s) => n + s.unknownTypes, 0)).toBe(unknown)
  })

  it('changes nothing on a second run, and recognises what it redacted', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const first = await compactEventLog(deps, { dryRun: false })
    const between = snapshotDb(deps.opencode.path)
    const progress: CompactProgress[] = []
    const second = await compactEventLog(deps, { dryRun: false }, (p) => progress.push(p))
    expect(second.eventsRedacted).toBe(0)
    expect(second.sessions).toBe(0)
    // OpenCode's own first snapshot of a text part is often minimal already (`text: ""`).
    const already = (a: typeof first) => a.perSession.reduce((n, s) => n + s.alreadyRedacted, 0)
    expect(already(second)).toBe(already(first) + first.eventsRedacted)
    expect(second.eventBytesAfter).toBe(first.eventBytesAfter)
    expect(snapshotDb(deps.opencode.path)).toEqual(between)
    expect(progress.at(-1)).toMatchObject({ sessionsDone: progress.at(-1)!.sessionsTotal })
  })

  it('refuses remotely owned, workspace and unreadable sessions and leaves every byte of them', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const file = deps.opencode.path
    const raw = deps.opencode.db.raw
    const ids = raw.prepare(`SELECT aggregate_id FROM event GROUP BY aggregate_id HAVING count(*) > 20 ORDER BY aggregate_id LIMIT 3`).pluck().all() as string[]
    expect(ids).toHaveLength(3)
    const [owned, workspace, broken] = ids as [string, string, string]
    raw.prepare(`UPDATE event_sequence SET owner_id = 'wrk_remote' WHERE aggregate_id = ?`).run(owned)
    raw.prepare(`UPDATE session SET workspace_id = 'wrk_elsewhere' WHERE id = ?`).run(workspace)
    raw.prepare(`UPDATE event SET data = '{"sessionID": broken' WHERE aggregate_id = ? AND seq = (SELECT max(seq) FROM event WHERE aggregate_id = ? AND type = 'message.part.updated.1')`).run(broken, broken)
    const before = readEvents(file).filter((e) => ids.includes(e.aggregate_id))
    const done = await compactEventLog(deps, { dryRun: false })
    expect(done.refused.map((r) => r.sessionID).sort()).toEqual([...ids].sort())
    expect(done.refused.find((r) => r.sessionID === broken)?.reason).toMatch(/not valid JSON/)
    expect(readEvents(file).filter((e) => ids.includes(e.aggregate_id))).toEqual(before)
    expect(done.eventsRedacted).toBeGreaterThan(0)
  })

  it("compacts 1.18's experimental sessions under their own generation's fences, and refuses one those fences hold", async () => {
    deps = await createTestDeps((await realFixture()).db)
    const experimental = deps.opencode.stores.all.find((store) => store.layout.experimental)
    const ids = deps.opencode.db.raw.prepare(`SELECT DISTINCT session_id FROM session_message ORDER BY session_id`).pluck().all() as string[]
    expect(experimental && ids.length).toBeGreaterThan(1)
    // Their rows are in `session`, their run state the 2.x one: the experimental store owns them, not the 1.x one.
    expect(ids.every((id) => deps!.opencode.stores.byGeneration.v1!.getSession(deps!.opencode.db, id) === undefined)).toBe(true)
    expect(ids.every((id) => experimental!.getSession(deps!.opencode.db, id) !== undefined)).toBe(true)
    const [held, free] = ids as [string, string]
    deps.opencode.db.raw.prepare(`UPDATE session SET time_compacting = 1 WHERE id = ?`).run(held)
    const before = readEvents(deps.opencode.path).filter((e) => e.aggregate_id === held)
    const done = await compactEventLog(deps, { dryRun: false })
    expect(done.refused).toEqual([{ sessionID: held, reason: expect.stringMatching(/compacting/) }])
    expect(readEvents(deps.opencode.path).filter((e) => e.aggregate_id === held)).toEqual(before)
    // Listed with their 1.x-named events read by the 1.x planner; the `session.next.*` ones counted and left.
    expect(done.perSession.find((s) => s.sessionID === free)).toMatchObject({ unknownTypes: expect.any(Number) })
    expect(done.perSession.find((s) => s.sessionID === free)!.unknownTypes).toBeGreaterThan(0)
  })

  it('refuses the whole run when the file was replaced under it', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const replaced = { ...deps, opencode: { ...deps.opencode, isSameFile: () => false } }
    const before = snapshotDb(deps.opencode.path)
    const done = await compactEventLog(replaced, { dryRun: false })
    expect(done).toMatchObject({ status: 'refused', eventsRedacted: 0 })
    expect(done.detail).toMatch(/replaced/)
    expect(snapshotDb(deps.opencode.path)).toEqual(before)
  })

  it('stops after a batch when asked, refuses a second writer meanwhile, and a new run finishes the job', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    const expected = (await compactEventLog(deps, { dryRun: true })).eventsRedacted
    const running = runCompaction(deps, { dryRun: false })
    expect(await caller.storage.compactStatus()).toMatchObject({ state: 'running' })
    expect(await caller.storage.compact({ dryRun: false })).toMatchObject({ status: 'refused', detail: expect.stringMatching(/already running/) })
    expect(await caller.storage.compactStop()).toEqual({ stopping: true })
    const stopped = await running
    expect(stopped.status).toBe('stopped')
    expect(stopped.eventsRedacted).toBeLessThan(expected)
    expect(await caller.storage.compactStatus()).toMatchObject({ state: 'finished', answer: { status: 'stopped' } })
    const rest = await caller.storage.compact({ dryRun: false })
    expect(rest.status).toBe('done')
    expect(stopped.eventsRedacted + rest.eventsRedacted).toBe(expected)
    expect(await caller.storage.compactStop()).toEqual({ stopping: false })
  })

  it('refuses input beyond the strict schema', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    await expect(caller.storage.compact({ dryRun: true, path: '/etc' } as never)).rejects.toThrow()
    await expect(caller.storage.compact({ dryRun: 'yes' } as never)).rejects.toThrow()
    await expect(caller.storage.compact({ dryRun: true, sessionIDs: ["x' OR 1=1"] })).rejects.toThrow()
  })
})
