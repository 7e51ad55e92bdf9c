import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { StorageLayout } from '../store/probe.js'
import { chunk, parseObject } from '../store/session-row.js'

/**
 * A 1.x `part` row. `data` holds only what a search document reads from the part (`SEARCH_V1`):
 * null when the part has nothing to search.
 */
export interface V1PartRow {
  rid: number
  id: string
  message_id: string
  session_id: string
  time_created: number
  time_updated: number
  data: string | null
  /** Its message's role, read for text parts only: the one kind of part whose document depends on it. */
  role: string | null
  /** Bytes of the stored data (also when `data` is withheld): part of a build batch's signature. */
  len: number
}

/** A 2.x `session_message` row. */
export interface V2MessageRow {
  rid: number
  id: string
  session_id: string
  type: string
  time_created: number
  time_updated: number
  data: string
  len: number
}

/** What identifies a row's version cheaply (no overflow pages read): rowid, update time, size. */
export interface RowStamp {
  rid: number
  time_updated: number
  len: number
}

export interface SourceSession {
  gen: StorageGeneration
  id: string
  title: string
  project_id: string
  directory: string
  time_created: number
  time_updated: number
  revert: string | null
}

/** A session as a search hit shows it: its title, and where a staged revert hides what follows. */
export interface SessionHead {
  title: string
  /** Where the session ran: tells apart sessions of the same title. */
  directory: string
  /** Messages from this id on are behind a staged revert; null without one. */
  revertFrom: string | null
}

const revertMessage = (revert: string | null): string | null => {
  const messageID = revert === null ? undefined : parseObject(revert)?.messageID
  return typeof messageID === 'string' ? messageID : null
}

// SQLite picks out the paths `partSearchFields` reads (JSON values kept as they are, so JS sees
// the same types) from parts of the types it indexes. Step markers, patches, file parts with
// inline images and the rest of a tool's state (metadata, attachments) never cross into JS: the
// index build reads and parses about a third of the bytes it would from whole rows.
// `json_valid` is strict JSON, as `JSON.parse` is (SQLite's other functions also take JSON5).
const SEARCHABLE_V1 = `json_valid(data) AND data ->> '$.type' IN ('text', 'reasoning', 'tool', 'subtask')`
const SEARCH_V1 = `CASE WHEN ${SEARCHABLE_V1} THEN json_object(
  'type', data -> '$.type', 'text', data -> '$.text', 'tool', data -> '$.tool',
  'description', data -> '$.description', 'prompt', data -> '$.prompt',
  'state', json_object('title', data -> '$.state.title', 'input', data -> '$.state.input',
    'output', data -> '$.state.output', 'error', data -> '$.state.error')) END`
const ROLE_V1 = `CASE WHEN json_valid(data) AND data ->> '$.type' = 'text' THEN
  (SELECT CASE WHEN json_valid(m.data) THEN m.data ->> '$.role' END FROM message m WHERE m.id = part.message_id) END`
const PART_COLUMNS = `rowid AS rid, id, message_id, session_id, time_created, time_updated, ${SEARCH_V1} AS data, ${ROLE_V1} AS role, octet_length(data) AS len`
const MESSAGE_COLUMNS = `rowid AS rid, id, session_id, type, time_created, time_updated, data, octet_length(data) AS len`
const SESSION_COLUMNS = `id, coalesce(title, '') AS title, project_id, directory, time_created, time_updated, revert`

/**
 * Read-only access to what the index covers in OpenCode's file: 1.x `part` rows and 2.x
 * `session_message` rows, by rowid (the resumable build) or by session (catch-up), plus
 * sessions and the event sequence (the change detector).
 */
export function createIndexSource(db: SqliteDb, layout: StorageLayout) {
  const v1 = layout.generations.find((g) => g.generation === 'v1')
  const v2 = layout.generations.find((g) => g.generation === 'v2')
  const experimental = v2?.experimental === true
  const ownsMessages = `EXISTS (SELECT 1 FROM session_message sm WHERE sm.session_id = s.id)`
  const sessionQueries: Array<[StorageGeneration, string]> = []
  if (v1) sessionQueries.push(['v1', `SELECT ${SESSION_COLUMNS} FROM session s${experimental ? ` WHERE NOT ${ownsMessages}` : ''}`])
  if (v2) sessionQueries.push(['v2', experimental ? `SELECT ${SESSION_COLUMNS} FROM session s WHERE ${ownsMessages}` : `SELECT ${SESSION_COLUMNS} FROM session_v2 s`])
  const sessionTable = (gen: StorageGeneration) => (gen === 'v2' && !experimental ? 'session_v2' : 'session')

  return {
    generations: { v1: !!v1, v2: !!v2 },
    totals(): { v1: number; v2: number; v1Max: number; v2Max: number } {
      const count = (table: string) => db.getSql<{ n: number; m: number | null }>(`SELECT count(*) AS n, max(rowid) AS m FROM ${table}`)!
      const a = v1 ? count('part') : { n: 0, m: 0 }
      const b = v2 ? count('session_message') : { n: 0, m: 0 }
      return { v1: a.n, v2: b.n, v1Max: a.m ?? 0, v2Max: b.m ?? 0 }
    },
    /** The last rowid of each table (cheap: the end of the rowid b-tree). */
    lastRowids(): { v1: number; v2: number } {
      const last = (table: string) => db.getSql<{ m: number | null }>(`SELECT max(rowid) AS m FROM ${table}`)!.m ?? 0
      return { v1: v1 ? last('part') : 0, v2: v2 ? last('session_message') : 0 }
    },
    /** Rows with rowid in (after, upTo], in rowid order, at most `limit`. */
    v1Chunk: (after: number, limit: number, upTo = Number.MAX_SAFE_INTEGER) =>
      db.allSql<V1PartRow>(`SELECT ${PART_COLUMNS} FROM part WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?`, [after, upTo, limit]),
    v2Chunk: (after: number, limit: number, upTo = Number.MAX_SAFE_INTEGER) =>
      db.allSql<V2MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM session_message WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?`, [after, upTo, limit]),
    /** The stamps of rows (after, upTo] of a table, in rowid order: has any changed since a batch read them? */
    stamps: (table: 'part' | 'session_message', after: number, upTo: number) =>
      db.allSql<RowStamp>(`SELECT rowid AS rid, time_updated, octet_length(data) AS len FROM ${table} WHERE rowid > ? AND rowid <= ? ORDER BY rowid`, [after, upTo]),
    sessions(): SourceSession[] {
      return sessionQueries.flatMap(([gen, sql]) => db.allSql<Omit<SourceSession, 'gen'>>(sql).map((s) => ({ gen, ...s })))
    },
    session(gen: StorageGeneration, id: string): SourceSession | undefined {
      const row = db.getSql<Omit<SourceSession, 'gen'>>(`SELECT ${SESSION_COLUMNS} FROM ${sessionTable(gen)} s WHERE id = ?`, [id])
      return row ? { gen, ...row } : undefined
    },
    /**
     * Title and staged revert boundary of these sessions (one query per generation); absent ids
     * are gone. Read per page of hits, so a search never scans every session.
     */
    heads(gen: StorageGeneration, ids: readonly string[]): Map<string, SessionHead> {
      const out = new Map<string, SessionHead>()
      for (const group of chunk([...new Set(ids)])) {
        const rows = db.allSql<{ id: string; title: string | null; directory: string | null; revert: string | null }>(
          `SELECT id, title, directory, revert FROM ${sessionTable(gen)} WHERE id IN (${group.map(() => '?').join(',')})`, group)
        for (const r of rows) out.set(r.id, { title: r.title ?? '', directory: r.directory ?? '', revertFrom: revertMessage(r.revert) })
      }
      return out
    },
    /** The event log's last seq per session; null without an event log. */
    sequences(): Map<string, number> | null {
      if (!layout.eventLog) return null
      return new Map(db.allSql<{ aggregate_id: string; seq: number }>(`SELECT aggregate_id, seq FROM event_sequence`).map((r) => [r.aggregate_id, r.seq]))
    },
    v1SessionRows: (sessionID: string, since: number) =>
      db.allSql<V1PartRow>(`SELECT ${PART_COLUMNS} FROM part WHERE session_id = ? AND time_updated >= ?`, [sessionID, since]),
    v1SessionPartIds: (sessionID: string) =>
      new Set(db.allSql<{ id: string }>(`SELECT id FROM part WHERE session_id = ?`, [sessionID]).map((r) => r.id)),
    v1MessageRows: (messageID: string) =>
      db.allSql<V1PartRow>(`SELECT ${PART_COLUMNS} FROM part WHERE message_id = ?`, [messageID]),
    v2SessionRows: (sessionID: string, since: number) =>
      db.allSql<V2MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM session_message WHERE session_id = ? AND time_updated >= ?`, [sessionID, since]),
    v2SessionMessageIds: (sessionID: string) =>
      new Set(db.allSql<{ id: string }>(`SELECT id FROM session_message WHERE session_id = ?`, [sessionID]).map((r) => r.id)),
    v2Message: (messageID: string) =>
      db.getSql<V2MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM session_message WHERE id = ?`, [messageID]),
    /** Which of these ids still exist, with their `time_updated` (for the reconcile sweep). */
    existing(table: 'part' | 'session_message', ids: readonly string[]): Map<string, number> {
      const out = new Map<string, number>()
      for (const group of chunk([...new Set(ids)])) {
        const rows = db.allSql<{ id: string; t: number }>(`SELECT id, time_updated AS t FROM ${table} WHERE id IN (${group.map(() => '?').join(',')})`, group)
        for (const r of rows) out.set(r.id, r.t)
      }
      return out
    },
    /** True when some session has this project or directory (scope checks: never a path lookup). */
    hasSession(column: 'project_id' | 'directory', value: string): boolean {
      return sessionQueries.some(([, sql]) => db.getSql(`SELECT 1 AS x FROM (${sql}) WHERE ${column} = ? LIMIT 1`, [value]) !== undefined)
    },
    /** Staged reverts: messages from `messageID` on are hidden until OpenCode commits or undoes it. */
    revertBoundaries(): Map<string, string> {
      const out = new Map<string, string>()
      for (const [gen, sql] of sessionQueries) {
        for (const s of db.allSql<{ id: string; revert: string | null }>(`SELECT id, revert FROM (${sql}) WHERE revert IS NOT NULL`)) {
          const messageID = revertMessage(s.revert)
          if (messageID) out.set(`${gen}:${s.id}`, messageID)
        }
      }
      return out
    },
  }
}

export type IndexSourceReader = ReturnType<typeof createIndexSource>
