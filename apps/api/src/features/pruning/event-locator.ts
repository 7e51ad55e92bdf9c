import type { SqliteDb } from '../../lib/sqlite.js'

interface SessionEntry {
  /** The highest seq seen among the session's `message.part.updated.1` events, with that row's id. */
  watermark: { seq: number; id: string } | null
  /** part id → ids of the events that carry it. */
  byPart: Map<string, string[]>
}

/**
 * Where each part's `message.part.updated.1` events are, per session, so redacting one message's
 * parts reads only those events instead of every event of the session (whose log holds every
 * intermediate state in full, often most of the file). Filled by one scan per session, then kept
 * current inside each write transaction by reading only the events appended since (`seq` beyond the
 * watermark, through OpenCode's (aggregate_id, type, seq) index: a log only grows at its end). A
 * wiped or restarted log shows as a watermark event that changed, and the entry is rebuilt. Callers still
 * verify every targeted event by its part id before writing, so a stale entry can never redact a
 * wrong row; it could only miss one, which the watermark check rules out.
 */
export interface EventLocator {
  /** Per part, the ids of the session's events carrying it, current as of this transaction. */
  eventsOf(db: SqliteDb, sessionID: string, partIDs: readonly string[]): Map<string, string[]>
  forget(sessionID: string): void
}

const MAX_SESSIONS = 8
const TYPE = 'message.part.updated.1'

export function createEventLocator(): EventLocator {
  const sessions = new Map<string, SessionEntry>()

  const scan = (db: SqliteDb, sessionID: string, entry: SessionEntry, after: number | null) => {
    const rows = db.allSql<{ seq: number; id: string; part: string | null }>(
      `SELECT seq, id, json_extract(data, '$.part.id') AS part FROM event
        WHERE aggregate_id = ? AND type = '${TYPE}'${after === null ? '' : ' AND seq > ?'} ORDER BY seq`,
      after === null ? [sessionID] : [sessionID, after],
    )
    for (const row of rows) {
      if (row.part) {
        const list = entry.byPart.get(row.part)
        if (list) list.push(row.id)
        else entry.byPart.set(row.part, [row.id])
      }
      entry.watermark = { seq: row.seq, id: row.id }
    }
  }

  const current = (db: SqliteDb, sessionID: string): SessionEntry => {
    let entry = sessions.get(sessionID)
    if (entry?.watermark) {
      const at = db.getSql<{ id: string }>(`SELECT id FROM event WHERE aggregate_id = ? AND seq = ?`, [sessionID, entry.watermark.seq])
      if (at?.id !== entry.watermark.id) entry = undefined
    }
    if (!entry) {
      entry = { watermark: null, byPart: new Map() }
      scan(db, sessionID, entry, null)
    } else {
      scan(db, sessionID, entry, entry.watermark?.seq ?? -1)
    }
    sessions.delete(sessionID)
    sessions.set(sessionID, entry)
    while (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string)
    return entry
  }

  return {
    eventsOf(db, sessionID, partIDs) {
      const entry = current(db, sessionID)
      return new Map(partIDs.map((id) => [id, entry.byPart.get(id) ?? []]))
    },
    forget: (sessionID) => void sessions.delete(sessionID),
  }
}
