import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BLOAT_FIXTURE, ensureRealFixture } from '../../../../../tools/fixtures.mjs'
import { createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { startRealOpenCode, type RealOpenCode } from '../../../test/real-opencode.js'
import { compactEventLog, type CompactAnswer } from './compact.service.js'

// Slow: the proof that a compacted log still replays to the same history. Each fixture starts the
// real OpenCode 1.18.33 twice: once on the compacted file, once empty to replay the log into.

interface SessionRow {
  id: string
  directory: string
}
type Exported = { info: unknown; messages: unknown[] }

const fixtures = [
  ['the default harness DB', async () => (await realFixture()).dir],
  ['the bloat DB (a bash progress stream)', () => ensureRealFixture(BLOAT_FIXTURE, { name: 'bloat' })],
] as const

describe.each(fixtures)('a compacted event log of %s, replayed into a fresh real OpenCode', (_name, fixtureDir) => {
  let deps: TestDeps
  let dir: string
  let work: string
  let answer: CompactAnswer
  let rows: SessionRow[]
  let served: RealOpenCode
  let replica: RealOpenCode
  const servers: RealOpenCode[] = []

  beforeAll(async () => {
    dir = await fixtureDir()
    deps = await createTestDeps(path.join(dir, 'opencode.db'))
    answer = await compactEventLog(deps, { dryRun: false })
    // Only 1.x sessions have messages and parts to compare; 1.18's experimental ones have neither.
    rows = deps.opencode.db.allSql<SessionRow>(`SELECT id, directory FROM session WHERE id IN (SELECT session_id FROM message) ORDER BY id`)
    deps.opencode.db.raw.pragma('wal_checkpoint(TRUNCATE)')
    work = tempDir('loupe-compact-replay-')
    const started = await Promise.allSettled([startRealOpenCode(deps.opencode.path), startRealOpenCode(path.join(work, 'replica.db'))])
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value)
    const failed = started.find((s) => s.status === 'rejected')
    if (failed) throw failed.reason
    ;[served, replica] = servers as [RealOpenCode, RealOpenCode]
  }, 240_000)

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
    deps?.cleanup()
    if (work) fs.rmSync(work, { recursive: true, force: true })
  })

  it('redacted superseded snapshots in every session and refused none', () => {
    expect(answer.status).toBe('done')
    expect(answer.refused).toEqual([])
    expect(answer.eventsRedacted).toBeGreaterThan(20)
    expect(rows.length).toBeGreaterThan(0)
  })

  it('is read back by OpenCode with the same messages and parts it exported before the compaction', async () => {
    for (const row of rows) {
      const exported = JSON.parse(fs.readFileSync(path.join(dir, 'sessions', `${row.id}.json`), 'utf8')) as Exported
      expect(await served.api.get(`/session/${row.id}/message`, { directory: row.directory }), row.id).toEqual(exported.messages)
    }
  }, 60_000)

  it('replays every session, in batches of 10 as workspace sync posts them, to the same session, messages and parts', async () => {
    const db = new Database(deps.opencode.path, { readonly: true })
    const events = db.prepare('SELECT id, seq, type, data FROM event WHERE aggregate_id = ? ORDER BY seq')
    try {
      for (const row of rows) {
        const log = (events.all(row.id) as { id: string; seq: number; type: string; data: string }[])
          .map((e) => ({ id: e.id, aggregateID: row.id, seq: e.seq, type: e.type, data: JSON.parse(e.data) as unknown }))
        expect(log.map((e) => e.seq), row.id).toEqual(log.map((_, i) => i))
        // /sync/replay checks every payload against OpenCode's schemas before projecting it.
        for (let i = 0; i < log.length; i += 10) {
          await replica.api.post('/sync/replay', { directory: row.directory, events: log.slice(i, i + 10) }, { directory: row.directory })
        }
        const query = { directory: row.directory }
        expect(await replica.api.get(`/session/${row.id}`, query), row.id).toEqual(await served.api.get(`/session/${row.id}`, query))
        expect(await replica.api.get(`/session/${row.id}/message`, query), row.id).toEqual(await served.api.get(`/session/${row.id}/message`, query))
      }
    } finally {
      db.close()
    }
  }, 180_000)
})
