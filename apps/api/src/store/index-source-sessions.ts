import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { chunk } from './session-row.js'
import { placeholders, revertMessage, type IndexSourceStore, type SessionHead, type SourceSession } from './index-source.js'

// The index source roles are SQL text rather than Kysely: the indexing threads build them, and
// start without loading Kysely (lib/query-builder.ts). Table names here are constants, never input.

const SESSION_COLUMNS = `id, coalesce(title, '') AS title, project_id, directory, time_created, time_updated, revert`

type SessionReads = Pick<IndexSourceStore, 'sessions' | 'session' | 'heads' | 'hasSession' | 'revertBoundaries'>

/** The index's reads of one generation's sessions: `table`'s rows, those `own` (experimental-rows.ts) selects. */
export function createSessionReads(gen: StorageGeneration, table: string, own: string | null): SessionReads {
  const all = `SELECT ${SESSION_COLUMNS} FROM ${table}${own ? ` WHERE ${own}` : ''}`
  const tagged = (row: Omit<SourceSession, 'gen'>): SourceSession => ({ gen, ...row })
  return {
    sessions: (db: SqliteDb) => db.allSql<Omit<SourceSession, 'gen'>>(all).map(tagged),
    // By id, the session a row names: a row's session is its generation's.
    session(db, id) {
      const row = db.getSql<Omit<SourceSession, 'gen'>>(`SELECT ${SESSION_COLUMNS} FROM ${table} WHERE id = ?`, [id])
      return row ? tagged(row) : undefined
    },
    heads(db, ids) {
      const out = new Map<string, SessionHead>()
      for (const group of chunk([...new Set(ids)])) {
        const rows = db.allSql<{ id: string; title: string | null; directory: string | null; revert: string | null }>(
          `SELECT id, title, directory, revert FROM ${table} WHERE id IN (${placeholders(group.length)})`, group)
        for (const r of rows) out.set(r.id, { title: r.title ?? '', directory: r.directory ?? '', revertFrom: revertMessage(r.revert) })
      }
      return out
    },
    hasSession: (db, column, value) => db.getSql(`SELECT 1 AS x FROM (${all}) WHERE ${column} = ? LIMIT 1`, [value]) !== undefined,
    revertBoundaries(db) {
      const out = new Map<string, string>()
      for (const s of db.allSql<{ id: string; revert: string | null }>(`SELECT id, revert FROM (${all}) WHERE revert IS NOT NULL`)) {
        const messageID = revertMessage(s.revert)
        if (messageID) out.set(s.id, messageID)
      }
      return out
    },
  }
}

/** Which of these ids of `table` exist, with their `time_updated`. */
export function existingIds(db: SqliteDb, table: string, ids: readonly string[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const group of chunk([...new Set(ids)])) {
    const rows = db.allSql<{ id: string; t: number }>(`SELECT id, time_updated AS t FROM ${table} WHERE id IN (${placeholders(group.length)})`, group)
    for (const r of rows) out.set(r.id, r.t)
  }
  return out
}

/** Row count and last rowid of `table`. */
export function countRows(db: SqliteDb, table: string): { rows: number; last: number } {
  const r = db.getSql<{ n: number; m: number | null }>(`SELECT count(*) AS n, max(rowid) AS m FROM ${table}`)!
  return { rows: r.n, last: r.m ?? 0 }
}

export const lastRowidOf = (db: SqliteDb, table: string) => db.getSql<{ m: number | null }>(`SELECT max(rowid) AS m FROM ${table}`)!.m ?? 0

/** The stamps of `table`'s rows (after, upTo]. */
export const stampsOf = (db: SqliteDb, table: string, after: number, upTo: number) =>
  db.allSql<{ rid: number; time_updated: number; len: number }>(
    `SELECT rowid AS rid, time_updated, octet_length(data) AS len FROM ${table} WHERE rowid > ? AND rowid <= ? ORDER BY rowid`, [after, upTo])
