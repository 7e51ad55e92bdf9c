import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'

/** The temp table Loupe keeps per-session totals in: on its own connection, never in the user's file. */
export const TOTALS_TABLE = 'temp.loupe_session_totals'

/** A row of the totals table as better-sqlite3 returns it. */
export interface SessionTotalsTable {
  generation: StorageGeneration
  id: string
  messages: number
  /** null on 2.x, whose parts are inline in the message rows. */
  parts: number | null
  message_bytes: number
  part_bytes: number
  event_bytes: number
  /** The stamps the row was computed at (`event_sequence.seq`, `time_updated`). */
  seq: number | null
  time_updated: number
}

/** What one generation's totals are computed from. */
export interface TotalsSource {
  generation: StorageGeneration
  /** `SELECT id, messages, parts, message_bytes, part_bytes, event_bytes, seq, time_updated` over the generation's sessions; `ids` limits it to a json_each list given as its one parameter. */
  select(ids: boolean): string
  /**
   * `SELECT id, seq, time_updated` of every session, when these stamps change with every write to a
   * session's rows; null when a change of the file means computing every session again.
   */
  stamps: string | null
}

/** Per-file freshness of the totals table (one per opened file, shared by its generations). */
export interface SessionTotals {
  /** Bring the totals of these generations up to date; inside the caller's read transaction. */
  refresh(db: SqliteDb, sources: readonly TotalsSource[]): void
  /** A write on Loupe's connection changed this session's rows without moving its stamps (event compaction). */
  touch(generation: StorageGeneration, sessionID: string): void
}

const CREATE = `CREATE TEMP TABLE IF NOT EXISTS loupe_session_totals (
  generation TEXT NOT NULL, id TEXT NOT NULL, messages INTEGER NOT NULL, parts INTEGER,
  message_bytes INTEGER NOT NULL, part_bytes INTEGER NOT NULL, event_bytes INTEGER NOT NULL,
  seq INTEGER, time_updated INTEGER NOT NULL, PRIMARY KEY (generation, id)) WITHOUT ROWID`

const COLUMNS = 'generation, id, messages, parts, message_bytes, part_bytes, event_bytes, seq, time_updated'

/**
 * `data_version` moves when another connection commits (OpenCode, a second Loupe); `total_changes()`
 * when this one writes (prunes, compaction, and this table's own refreshes). Equal tokens: the file
 * is as it was when the totals were computed, so they are exact without reading a row.
 */
/** Create the totals table on this connection if it is not there yet (a temp table: nothing reaches the file). */
export function ensureTotalsTable(db: SqliteDb): void {
  db.runSql(CREATE)
}

export function readToken(db: SqliteDb): string {
  const version = db.raw.pragma('data_version', { simple: true }) as number
  const changes = db.getSql<{ n: number }>('SELECT total_changes() AS n')?.n ?? 0
  return `${version}:${changes}`
}

/**
 * Per-session totals (message and part counts, stored bytes of messages, parts and the event log) in
 * a temp table, so the list can sort and sum them in SQL: computing them all reads every row's size
 * (bench/README.md has the figures), a refresh reads only what changed. When the file changed and the
 * generation's stamps are trusted (1.x with an event log: every OpenCode write and every Loupe prune
 * advances the session's `event_sequence.seq`), only sessions whose stamps moved, or that a write of
 * Loupe's marked, are computed again; otherwise the whole generation is. Another process that
 * rewrites a 1.x session's rows without advancing its seq (a hand edit, a second Loupe's compaction)
 * shows once that session's stamps move, or when Loupe opens the file again.
 */
export function createSessionTotals(): SessionTotals {
  let token: string | null = null
  const filled = new Set<StorageGeneration>()
  const touched = new Map<StorageGeneration, Set<string>>()

  const fillAll = (db: SqliteDb, source: TotalsSource) => {
    db.runSql(`DELETE FROM ${TOTALS_TABLE} WHERE generation = ?`, [source.generation])
    db.runSql(`INSERT INTO ${TOTALS_TABLE} (${COLUMNS}) SELECT ?, * FROM (${source.select(false)})`, [source.generation])
    filled.add(source.generation)
  }

  const fillChanged = (db: SqliteDb, source: TotalsSource, stamps: string) => {
    const changed = db.pluckSql<string>(
      `SELECT s.id FROM (${stamps}) s LEFT JOIN ${TOTALS_TABLE} t ON t.generation = ? AND t.id = s.id
        WHERE t.id IS NULL OR t.seq IS NOT s.seq OR t.time_updated IS NOT s.time_updated`,
      [source.generation],
    )
    const ids = [...new Set([...changed, ...(touched.get(source.generation) ?? [])])]
    if (ids.length === 0) return
    const list = JSON.stringify(ids)
    db.runSql(`DELETE FROM ${TOTALS_TABLE} WHERE generation = ? AND id IN (SELECT value FROM json_each(?))`, [source.generation, list])
    db.runSql(`INSERT INTO ${TOTALS_TABLE} (${COLUMNS}) SELECT ?, * FROM (${source.select(true)})`, [source.generation, list])
  }

  return {
    refresh(db, sources) {
      const before = readToken(db)
      if (before === token && sources.every((s) => filled.has(s.generation))) return
      ensureTotalsTable(db)
      for (const source of sources) {
        if (filled.has(source.generation) && source.stamps) fillChanged(db, source, source.stamps)
        else fillAll(db, source)
        touched.delete(source.generation)
      }
      token = readToken(db)
    },
    touch(generation, sessionID) {
      const set = touched.get(generation) ?? new Set<string>()
      set.add(sessionID)
      touched.set(generation, set)
    },
  }
}

export interface TotalsSourceSpec {
  generation: StorageGeneration
  /** The generation's session table, and which of its rows are the generation's (experimental-rows.ts). */
  table: string
  own: string | null
  /** SQL sums of the generation's message rows for the session `s`: `messages`, `parts`, `message_bytes`, `part_bytes`. */
  rows: string
  eventLog: boolean
  /** Whether every write to a session's rows advances its `event_sequence.seq` (opencode-storage.md §8.2). */
  stamped: boolean
}

/** A generation's totals source: its own row sums, plus the event log's bytes and stamps when it has one. */
export function createTotalsSource(spec: TotalsSourceSpec): TotalsSource {
  const sessions = (ids: boolean) => {
    const where = [spec.own, ids ? `${spec.table}.id IN (SELECT value FROM json_each(?))` : null].filter(Boolean)
    return `SELECT id, time_updated FROM ${spec.table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`
  }
  const events = spec.eventLog ? `(SELECT coalesce(sum(octet_length(data)), 0) FROM event WHERE aggregate_id = s.id)` : '0'
  const seq = spec.eventLog ? `(SELECT seq FROM event_sequence WHERE aggregate_id = s.id)` : 'NULL'
  return {
    generation: spec.generation,
    // octet_length reads a value's size from its record header, not its overflow pages.
    select: (ids) => `SELECT s.id, ${spec.rows}, ${events} AS event_bytes, ${seq} AS seq, s.time_updated FROM (${sessions(ids)}) s`,
    stamps: spec.eventLog && spec.stamped ? `SELECT s.id, ${seq} AS seq, s.time_updated FROM (${sessions(false)}) s` : null,
  }
}

/** 1.x: `message` rows and `part` rows of the session. */
export const V1_ROW_SUMS = `(SELECT count(*) FROM message WHERE session_id = s.id) AS messages,
  (SELECT count(*) FROM part WHERE session_id = s.id) AS parts,
  (SELECT coalesce(sum(octet_length(data)), 0) FROM message WHERE session_id = s.id) AS message_bytes,
  (SELECT coalesce(sum(octet_length(data)), 0) FROM part WHERE session_id = s.id) AS part_bytes`

/** 2.x: `session_message` rows, parts inline (not counted). */
export const V2_ROW_SUMS = `(SELECT count(*) FROM session_message WHERE session_id = s.id) AS messages,
  NULL AS parts,
  (SELECT coalesce(sum(octet_length(data)), 0) FROM session_message WHERE session_id = s.id) AS message_bytes,
  0 AS part_bytes`
