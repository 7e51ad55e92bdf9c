import type { SqliteDb } from '../lib/sqlite.js'
import type { BreakdownRow } from './opencode-store.js'

/** Bytes of a session's event log by event type: on 1.x usually most of the file. */
export function eventBreakdown(db: SqliteDb, sessionID: string): BreakdownRow[] {
  return db.allSql<BreakdownRow>(
    `SELECT 'event' AS area, type AS kind, NULL AS tool, count(*) AS count, sum(octet_length(data)) AS bytes
       FROM event WHERE aggregate_id = ? GROUP BY type`,
    [sessionID],
  )
}

/** Event-log bytes per session (aggregate), for the sessions of one page. Missing ids have none. */
export function eventBytesBySession(db: SqliteDb, ids: readonly string[]): Map<string, number> {
  if (ids.length === 0) return new Map()
  const rows = db.allSql<{ id: string; bytes: number }>(
    `SELECT aggregate_id AS id, coalesce(sum(octet_length(data)), 0) AS bytes FROM event
      WHERE aggregate_id IN (${ids.map(() => '?').join(',')}) GROUP BY aggregate_id`,
    ids,
  )
  return new Map(rows.map((r) => [r.id, r.bytes]))
}
