import { afterEach, describe, expect, it } from 'vitest'
import { openSqlite, type SqliteDb } from '../lib/sqlite.js'
import { createUsageReader } from './usage-reader.js'
import type { MinuteCell, UsageRole } from './usage.store.js'

const cell = (sessionID: string, cost: number): MinuteCell => ({
  minute: 29_000_000, storage: 'v1', sessionID, providerID: 'p', modelID: 'm', messages: 1,
  tokens: { input: 1, output: 1, reasoning: 0, cacheRead: 0, cacheWrite: 0 }, cost,
})

let db: SqliteDb | undefined
afterEach(() => db?.close())

describe('createUsageReader', () => {
  it('returns the same cells in the same order after a session is read again, so sums do not move', () => {
    db = openSqlite(':memory:')
    db.raw.exec(`CREATE TABLE st (id TEXT, seq INTEGER, time_updated INTEGER); INSERT INTO st VALUES ('a', 1, 1), ('b', 1, 1), ('c', 1, 1)`)
    const cells = [cell('a', 0.1), cell('b', 0.2), cell('c', 0.3)]
    const reads: (readonly string[] | undefined)[] = []
    const role: UsageRole = {
      minutes: (_db, ids) => (reads.push(ids), cells.filter((c) => !ids || ids.includes(c.sessionID))),
      sessions: () => [],
      stamps: `SELECT id, seq, time_updated FROM st`,
    }
    const reader = createUsageReader([role])
    const before = db.read(() => reader.read(db!, 0)).cells
    db.runSql(`UPDATE st SET seq = 2 WHERE id = 'a'`)
    const after = db.read(() => reader.read(db!, 0)).cells
    // Only the moved session was read again, and its cells come back where they were.
    expect(reads).toEqual([undefined, ['a']])
    expect(after).toEqual(before)
    expect(after.reduce((n, c) => n + c.cost, 0)).toBe(before.reduce((n, c) => n + c.cost, 0))
  })
})
