import type { SqliteDb } from '../lib/sqlite.js'

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
  /**
   * Per part of `replacements` (part id → JSON text of its replacement part), the session's events
   * carrying it, current as of this transaction. An event this call read (the first scan, or one
   * appended since) comes with `redacted`: the bytes of its data with `$.part` set to the
   * replacement, by the same `json_set` a redaction runs, so the caller writes it without parsing
   * the event again.
   */
  eventsOf(db: SqliteDb, sessionID: string, replacements: ReadonlyMap<string, string>): Map<string, LocatedEvent[]>
  forget(sessionID: string): void
}

export interface LocatedEvent {
  id: string
  redacted?: Buffer
}

const MAX_SESSIONS = 8
const TYPE = 'message.part.updated.1'

export function createEventLocator(): EventLocator {
  const sessions = new Map<string, SessionEntry>()

  /** Reads the session's part events after `after` into the entry; the redacted data of those whose part is replaced. */
  const scan = (db: SqliteDb, sessionID: string, entry: SessionEntry, after: number | null, replacements: string): Map<string, Buffer> => {
    // SQLite's JSON cache parses each row once for every call on it. The IN list is built once per
    // scan, so only events of replaced parts run the lookup. As a BLOB, the result keeps its exact
    // bytes on the way through JavaScript.
    const rows = db.allSql<{ seq: number; id: string; part: string | null; redacted: Buffer | null }>(
      `SELECT seq, id, json_extract(data, '$.part.id') AS part,
              CASE WHEN json_extract(data, '$.part.id') IN (SELECT key FROM json_each(@replacements)) THEN
                (SELECT CAST(json_set(data, '$.part', json(r.value)) AS BLOB) FROM json_each(@replacements) r WHERE r.key = json_extract(data, '$.part.id'))
              END AS redacted
         FROM event WHERE aggregate_id = @sessionID AND type = '${TYPE}'${after === null ? '' : ' AND seq > @after'} ORDER BY seq`,
      [after === null ? { replacements, sessionID } : { replacements, sessionID, after }],
    )
    const redacted = new Map<string, Buffer>()
    for (const row of rows) {
      if (row.part) {
        const list = entry.byPart.get(row.part)
        if (list) list.push(row.id)
        else entry.byPart.set(row.part, [row.id])
      }
      if (row.redacted !== null) redacted.set(row.id, row.redacted)
      entry.watermark = { seq: row.seq, id: row.id }
    }
    return redacted
  }

  return {
    eventsOf(db, sessionID, replacements) {
      let entry = sessions.get(sessionID)
      if (entry?.watermark) {
        const at = db.getSql<{ id: string }>(`SELECT id FROM event WHERE aggregate_id = ? AND seq = ?`, [sessionID, entry.watermark.seq])
        if (at?.id !== entry.watermark.id) entry = undefined
      }
      const wanted = JSON.stringify(Object.fromEntries(replacements))
      let redacted: Map<string, Buffer>
      if (!entry) {
        entry = { watermark: null, byPart: new Map() }
        redacted = scan(db, sessionID, entry, null, wanted)
      } else {
        redacted = scan(db, sessionID, entry, entry.watermark?.seq ?? -1, wanted)
      }
      sessions.delete(sessionID)
      sessions.set(sessionID, entry)
      while (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string)
      const byPart = entry.byPart
      return new Map([...replacements.keys()].map((id) => [id, (byPart.get(id) ?? []).map((eventID) => ({ id: eventID, redacted: redacted.get(eventID) }))]))
    },
    forget: (sessionID) => void sessions.delete(sessionID),
  }
}
