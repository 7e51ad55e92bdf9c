import type { SqliteDb } from '../lib/sqlite.js'
import type { BreakdownRow } from './store.js'

/** Bytes of a session's event log by event type: on 1.x usually most of the file. */
export function eventBreakdown(db: SqliteDb, sessionID: string): BreakdownRow[] {
  return db.allSql<BreakdownRow>(
    `SELECT 'event' AS area, type AS kind, NULL AS tool, count(*) AS count, sum(octet_length(data)) AS bytes
       FROM event WHERE aggregate_id = ? GROUP BY type`,
    [sessionID],
  )
}
