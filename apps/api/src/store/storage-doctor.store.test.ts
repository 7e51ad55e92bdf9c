import fs from 'node:fs'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { copyDb, realFixture, tempDir } from '../../test/harness.js'
import { bloatDb } from '../features/storage/testing/bloat-db.js'
import { openSqlite } from '../lib/sqlite.js'
import { readTableBytes, splitEventLog, type AggregateEvents } from './storage-doctor.store.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

const SNAPSHOT = new Set(['message.part.updated.1', 'message.updated.1', 'session.updated.1'])

/** The split computed the slow, obvious way: every event parsed whole. */
function referenceSplit(file: string) {
  const db = new Database(file, { readonly: true })
  const rows = db.prepare(`SELECT aggregate_id AS agg, seq, type, data FROM event`).all() as Array<{ agg: string; seq: number; type: string; data: string }>
  db.close()
  const out = { current: 0, superseded: 0, redacted: 0 }
  const newest = new Map<string, { seq: number }>()
  for (const r of rows) {
    if (!SNAPSHOT.has(r.type)) continue
    const d = JSON.parse(r.data) as { part?: { id: string }; info?: { id: string } }
    const key = `${r.agg}|${r.type}|${r.type === 'session.updated.1' ? r.agg : (d.part?.id ?? d.info?.id)}`
    if ((newest.get(key)?.seq ?? -1) < r.seq) newest.set(key, { seq: r.seq })
  }
  for (const r of rows) {
    const bytes = Buffer.byteLength(r.data)
    const d = JSON.parse(r.data) as { part?: { id: string; type: string; text?: string; state?: { status: string; input?: object; raw?: string } }; info?: { id: string } }
    const key = `${r.agg}|${r.type}|${r.type === 'session.updated.1' ? r.agg : (d.part?.id ?? d.info?.id)}`
    if (!SNAPSHOT.has(r.type) || newest.get(key)?.seq === r.seq) out.current += bytes
    else {
      const p = d.part
      const minimal = p !== undefined && (p.type === 'tool' ? p.state?.status === 'pending' && JSON.stringify(p.state.input ?? {}) === '{}' && (p.state.raw ?? '') === '' : (p.type === 'text' || p.type === 'reasoning') && p.text === '')
      if (minimal) out.redacted += bytes
      else out.superseded += bytes
    }
  }
  return out
}

describe('splitEventLog', () => {
  it('agrees with a whole-parse reference on the real OpenCode DB and on a streamed snapshot chain', async () => {
    const dir = tempDir()
    dirs.push(dir)
    const file = copyDb((await realFixture()).db, dir)
    for (const round of ['real', 'bloated'] as const) {
      if (round === 'bloated') bloatDb(file, { snapshots: 120, stepBytes: 3000 })
      const db = openSqlite(file, { fileMustExist: true })
      const perAggregate = new Map<string, AggregateEvents>()
      const split = db.read(() => splitEventLog(db, () => {}, perAggregate))
      const eventData = db.getSql<{ b: number }>(`SELECT sum(octet_length(data)) AS b FROM event`)?.b
      db.close()
      const ref = referenceSplit(file)
      expect({ current: split.current.bytes, superseded: split.superseded.bytes, redacted: split.redacted.bytes }).toEqual(ref)
      expect(split.current.bytes + split.superseded.bytes + split.redacted.bytes).toBe(eventData)
      expect([...perAggregate.values()].reduce((n, a) => n + a.bytes, 0)).toBe(eventData)
      expect(split.unkeyed).toBe(0)
      if (round === 'bloated') expect(split.superseded.bytes).toBeGreaterThan(119 * 120 * 3000 * 0.45)
    }
  })

  it('keys an event whose part id is not at the head through json_extract instead of guessing', () => {
    const dir = tempDir()
    dirs.push(dir)
    const db = openSqlite(`${dir}/x.db`)
    db.raw.exec(`CREATE TABLE event (id TEXT PRIMARY KEY, aggregate_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL)`)
    const pad = 'y'.repeat(5000)
    const ins = db.raw.prepare(`INSERT INTO event VALUES (?, 's', ?, 'message.part.updated.1', ?)`)
    ins.run('e1', 1, JSON.stringify({ pad, part: { id: 'p1', type: 'text', text: 'a' } }))
    ins.run('e2', 2, JSON.stringify({ pad, part: { id: 'p1', type: 'text', text: 'ab' } }))
    const split = splitEventLog(db, () => {}, new Map())
    expect(split.current.count).toBe(1)
    expect(split.superseded.count).toBe(1)
    expect(readTableBytes(db, 'event')).toBeGreaterThan(10_000)
    db.close()
  })
})
