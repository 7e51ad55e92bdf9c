import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyDb, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { startRealOpenCode, type RealOpenCode } from '../../../test/real-opencode.js'
import { compactEventLog } from './compact.service.js'

// Slow: two fresh real OpenCode 1.18.33 servers. 1.18.33's session projector sets some columns only
// when a `session.updated.1` carries them, so a value only an earlier snapshot holds survives in the
// projection. Real histories rarely have one; this log is given one, and the original and the
// compacted log must replay to the same session.

type LogRow = { id: string; seq: number; type: string; data: string }
const ARCHIVED = 1_796_000_000_000

describe('a session whose earlier snapshot holds fields the newest lacks, original and compacted log replayed side by side', () => {
  let deps: TestDeps
  let work: string
  let original: LogRow[]
  let sessionID: string
  let directory: string
  const servers: RealOpenCode[] = []

  beforeAll(async () => {
    work = tempDir('loupe-compact-fields-')
    const file = copyDb((await realFixture()).db, work)
    const db = new Database(file)
    const first = db.prepare(`SELECT e.id, e.aggregate_id AS sessionID, s.directory FROM event e JOIN session s ON s.id = e.aggregate_id
      WHERE e.type = 'session.updated.1' AND e.aggregate_id IN (SELECT session_id FROM message)
      GROUP BY e.aggregate_id HAVING count(*) >= 3 ORDER BY e.aggregate_id LIMIT 1`).get() as { id: string; sessionID: string; directory: string }
    ;({ sessionID, directory } = first)
    const earliest = db.prepare(`SELECT id FROM event WHERE aggregate_id = ? AND type = 'session.updated.1' ORDER BY seq LIMIT 1`).pluck().get(sessionID) as string
    db.prepare(`UPDATE event SET data = json_set(data, '$.info.time.archived', ?, '$.info.metadata', json('{"pinned":"yes"}')) WHERE id = ?`).run(ARCHIVED, earliest)
    original = db.prepare(`SELECT id, seq, type, data FROM event WHERE aggregate_id = ? ORDER BY seq`).all(sessionID) as LogRow[]
    db.close()
    deps = await createTestDeps(file)
    const answer = await compactEventLog(deps, { dryRun: false, sessionIDs: [sessionID] })
    expect(answer).toMatchObject({ status: 'done', sessions: 1, refused: [] })
    const started = await Promise.allSettled([startRealOpenCode(path.join(work, 'a.db')), startRealOpenCode(path.join(work, 'b.db'))])
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value)
    const failed = started.find((s) => s.status === 'rejected')
    if (failed) throw failed.reason
  }, 240_000)

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    deps?.cleanup()
    if (work) fs.rmSync(work, { recursive: true, force: true })
  })

  it('keeps those fields in the redacted copy, so both replays end at the same session, messages and parts', async () => {
    const compacted = deps.opencode.db.allSql<LogRow>(`SELECT id, seq, type, data FROM event WHERE aggregate_id = ? ORDER BY seq`, [sessionID])
    expect(compacted.filter((e, i) => e.data !== original[i]!.data).length).toBeGreaterThan(5)
    const [a, b] = servers as [RealOpenCode, RealOpenCode]
    const replay = async (server: RealOpenCode, log: LogRow[]) => {
      const events = log.map((e) => ({ id: e.id, aggregateID: sessionID, seq: e.seq, type: e.type, data: JSON.parse(e.data) as unknown }))
      for (let i = 0; i < events.length; i += 10) await server.api.post('/sync/replay', { directory, events: events.slice(i, i + 10) }, { directory })
    }
    await replay(a, original)
    await replay(b, compacted)
    const query = { directory }
    const fromOriginal = (await a.api.get(`/session/${sessionID}`, query)) as { time: { archived?: number }; metadata?: unknown }
    expect(fromOriginal.time.archived).toBe(ARCHIVED)
    expect(fromOriginal.metadata).toEqual({ pinned: 'yes' })
    expect(await b.api.get(`/session/${sessionID}`, query)).toEqual(fromOriginal)
    expect(await b.api.get(`/session/${sessionID}/message`, query)).toEqual(await a.api.get(`/session/${sessionID}/message`, query))
  }, 120_000)
})
