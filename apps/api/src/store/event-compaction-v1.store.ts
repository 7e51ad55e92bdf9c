import type { SqliteDb } from '../lib/sqlite.js'
import { SNAPSHOT_TYPES, type Redaction, type ScannedEvent } from './event-compaction-v1.plan.js'

/** A session's share of the event log, for choosing what to compact and for the totals. */
export interface EventLogSession {
  sessionID: string
  title: string
  events: number
  bytes: number
}

// Payloads up to this size come back whole, so a redacted one (a few hundred bytes) is recognised
// without a second read.
const SMALL_BYTES = 4096
const [PART, MESSAGE, SESSION] = SNAPSHOT_TYPES

// One JSON parse per row: SQLite caches a row's parsed payload across the json_* calls on it. The
// snapshot types give the fields a redaction needs; any other type is only checked to be JSON.
const SCAN_SQL = `
  SELECT id, seq, type, octet_length(data) AS bytes,
    CASE type
      WHEN '${PART}' THEN json_extract(data, '$.part.id', '$.part.type', '$.part.sessionID', '$.part.messageID', '$.part.callID', '$.part.tool', '$.part.time.start')
      WHEN '${MESSAGE}' THEN json_extract(data, '$.info', '$.sessionID')
      WHEN '${SESSION}' THEN json_extract(data, '$.info', '$.sessionID')
    END AS fields,
    CASE type
      WHEN '${PART}' THEN json_remove(data, '$.part')
      WHEN '${MESSAGE}' THEN json_remove(data, '$.info')
      WHEN '${SESSION}' THEN json_remove(data, '$.info')
    END AS rest,
    CASE WHEN octet_length(data) <= ${SMALL_BYTES} THEN data END AS small,
    CASE WHEN type IN ('${PART}', '${MESSAGE}', '${SESSION}') THEN 1 ELSE json_valid(data) END AS valid
  FROM event WHERE aggregate_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?`

/** The 1.x sessions that have events, largest log first, with their event count and payload bytes. */
export function listEventLogSessions(db: SqliteDb, sessionIDs?: readonly string[]): EventLogSession[] {
  const filter = sessionIDs ? `WHERE s.id IN (SELECT value FROM json_each(?))` : ''
  // octet_length reads a payload's size from its record header, not its overflow pages.
  return db.allSql<EventLogSession>(
    `SELECT s.id AS sessionID, s.title AS title, count(*) AS events, sum(octet_length(e.data)) AS bytes
       FROM event e JOIN session s ON s.id = e.aggregate_id
      ${filter}
      GROUP BY s.id ORDER BY bytes DESC, s.id`,
    sessionIDs ? [JSON.stringify(sessionIDs)] : [],
  )
}

/**
 * Up to `limit` events of the session before `beforeSeq`, newest first, as the planner reads them.
 * Throws SQLite's "malformed JSON" when a snapshot's payload is not JSON; the caller skips the session.
 */
export function scanSessionEvents(db: SqliteDb, sessionID: string, beforeSeq: number, limit: number): ScannedEvent[] {
  return db.allSql<ScannedEvent>(SCAN_SQL, [sessionID, beforeSeq, limit])
}

/** True while every event the redactions rely on (the newest snapshot of each entity) is still in the log. */
export function newestStillThere(db: SqliteDb, sessionID: string, ids: readonly string[]): boolean {
  const row = db.getSql<{ n: number }>(`SELECT count(*) AS n FROM event WHERE aggregate_id = ? AND id IN (SELECT value FROM json_each(?))`, [sessionID, JSON.stringify(ids)])
  return row?.n === ids.length
}

export class CompactionConflict extends Error {}

/**
 * Redact these events in place, inside the caller's write transaction: only `data` changes (id,
 * aggregate, seq, type and `created` stay), by the same `json_set` the prune uses. Each row must
 * still be the one scanned (id, seq, type and size), or the whole batch rolls back. Returns the
 * payload bytes before and after.
 */
export function applyRedactions(db: SqliteDb, sessionID: string, batch: readonly Redaction[]): { before: number; after: number } {
  let before = 0
  let after = 0
  const guard = `WHERE id = ? AND aggregate_id = ? AND seq = ? AND type = ? AND octet_length(data) = ? RETURNING octet_length(data) AS bytes`
  for (const r of batch) {
    const where = [r.id, sessionID, r.seq, r.type, r.bytes]
    // The whole payload, when the planner could write it (OpenCode's own shape): no second parse of the old one.
    const row = r.data !== undefined
      ? db.getSql<{ bytes: number }>(`UPDATE event SET data = CAST(? AS TEXT) ${guard}`, [r.data, ...where])
      : db.getSql<{ bytes: number }>(`UPDATE event SET data = json_set(data, '${r.path}', json(?)) ${guard}`, [r.replacement, ...where])
    if (!row) throw new CompactionConflict(`event ${r.seq} changed since it was read`)
    before += r.bytes
    after += row.bytes
  }
  return { before, after }
}

