import type { SqliteDb } from '../lib/sqlite.js'
import type { StorageLayout } from './probe.js'

/** Bytes and counts of one slice of the event log. */
export interface EventSlice {
  count: number
  bytes: number
}

export interface EventSplit {
  current: EventSlice
  superseded: EventSlice
  redacted: EventSlice
  /** Snapshot events whose entity id could not be read: counted as current, never guessed at. */
  unkeyed: number
}

export interface AggregateEvents {
  bytes: number
  supersededBytes: number
}

export interface FileFacts {
  pageSize: number
  pages: number
  freePages: number
  userVersion: number
  applicationId: number
  journalMode: string
}

const SNAPSHOT_TYPES = ['message.part.updated.1', 'message.updated.1', 'session.updated.1'] as const
/** Small events are read whole, so a redacted one is recognised by its content; big ones only by their head. */
const WHOLE_BYTES = 2048
const HEAD_CHARS = 256
const PART_ID = /"part":\{"id":"([^"]+)"/
const INFO_ID = /"info":\{"id":"([^"]+)"/

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`

/** Page size, page and free-page counts and the header fields a verified copy must keep. */
export function readFileFacts(db: SqliteDb): FileFacts {
  const p = (name: string) => db.raw.pragma(name, { simple: true }) as number | string
  return {
    pageSize: Number(p('page_size')),
    pages: Number(p('page_count')),
    freePages: Number(p('freelist_count')),
    userVersion: Number(p('user_version')),
    applicationId: Number(p('application_id')),
    journalMode: String(p('journal_mode')).toLowerCase(),
  }
}

/** Ordinary tables of the file, Loupe's own included (a reclaim copies them too). */
export function listTables(db: SqliteDb): string[] {
  return db.pluckSql<string>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`)
}

/**
 * Payload bytes per table: the sum of `octet_length` of every column. SQLite answers
 * `octet_length` from the record header without reading overflow pages, so this is far cheaper
 * than a `dbstat` pass on a big file (integers count as their decimal text).
 */
export function readTableBytes(db: SqliteDb, table: string): number {
  const columns = db.pluckSql<string>(`SELECT name FROM pragma_table_info(?)`, [table])
  if (columns.length === 0) return 0
  const sum = columns.map((c) => `coalesce(sum(octet_length(${quoteIdent(c)})), 0)`).join(' + ')
  return db.getSql<{ bytes: number }>(`SELECT ${sum} AS bytes FROM ${quoteIdent(table)}`)?.bytes ?? 0
}

export function countRows(db: SqliteDb, table: string): number {
  return db.getSql<{ n: number }>(`SELECT count(*) AS n FROM ${quoteIdent(table)}`)?.n ?? 0
}

/** An upper bound of the event rows, for progress (O(log n)). */
export function estimateEventRows(db: SqliteDb): number {
  return db.getSql<{ n: number | null }>(`SELECT max(rowid) AS n FROM event`)?.n ?? 0
}

/** A part redacted by Loupe's prune (minimalV1Part) or never filled: nothing left to give back. */
function isRedactedSnapshot(type: string, whole: string): boolean {
  if (type !== 'message.part.updated.1') return false
  try {
    const part = (JSON.parse(whole) as { part?: Record<string, unknown> }).part
    if (!part) return false
    if (part.type === 'tool') {
      const state = part.state as { status?: unknown; input?: unknown; raw?: unknown } | undefined
      return state?.status === 'pending' && JSON.stringify(state.input ?? {}) === '{}' && (state.raw ?? '') === ''
    }
    return (part.type === 'reasoning' || part.type === 'text') && part.text === ''
  } catch {
    return false
  }
}

interface EntityTally {
  newestSeq: number
  newestBytes: number
  newestRedacted: boolean
  count: number
  bytes: number
  redactedCount: number
  redactedBytes: number
}

/**
 * Split the 1.x event log into current (the newest snapshot of each part, message and session,
 * plus every other event), superseded snapshots and already-redacted ones, in one pass in
 * (aggregate, seq) order so only one session's entities are held at a time.
 */
export function splitEventLog(db: SqliteDb, onRows: (rows: number) => void, perAggregate: Map<string, AggregateEvents>): EventSplit {
  const split: EventSplit = { current: { count: 0, bytes: 0 }, superseded: { count: 0, bytes: 0 }, redacted: { count: 0, bytes: 0 }, unkeyed: 0 }
  const types = SNAPSHOT_TYPES.map((t) => `'${t}'`).join(',')
  const stmt = db.raw.prepare(
    `SELECT aggregate_id, seq, type, octet_length(data) AS bytes,
            CASE WHEN type IN (${types}) THEN (CASE WHEN octet_length(data) <= ${WHOLE_BYTES} THEN data ELSE substr(data, 1, ${HEAD_CHARS}) END) END AS head
       FROM event ORDER BY aggregate_id, seq`,
  ).raw()
  const fallback = db.raw.prepare(`SELECT coalesce(json_extract(data, '$.part.id'), json_extract(data, '$.info.id')) FROM event WHERE aggregate_id = ? AND seq = ?`).pluck()
  let aggregate: string | null = null
  let entities = new Map<string, EntityTally>()
  let totals: AggregateEvents = { bytes: 0, supersededBytes: 0 }
  const flush = () => {
    for (const e of entities.values()) {
      split.current.count += 1
      split.current.bytes += e.newestBytes
      const redactedCount = e.redactedCount - (e.newestRedacted ? 1 : 0)
      const redactedBytes = e.redactedBytes - (e.newestRedacted ? e.newestBytes : 0)
      split.redacted.count += redactedCount
      split.redacted.bytes += redactedBytes
      split.superseded.count += e.count - 1 - redactedCount
      split.superseded.bytes += e.bytes - e.newestBytes - redactedBytes
      totals.supersededBytes += e.bytes - e.newestBytes - redactedBytes
    }
    if (aggregate !== null) perAggregate.set(aggregate, totals)
  }
  let rows = 0
  for (const [agg, seq, type, bytes, head] of stmt.iterate() as Iterable<[string, number, string, number, string | null]>) {
    if (agg !== aggregate) {
      flush()
      aggregate = agg
      entities = new Map()
      totals = { bytes: 0, supersededBytes: 0 }
    }
    totals.bytes += bytes
    if ((++rows & 0xfff) === 0) onRows(rows)
    if (head === null) {
      split.current.count += 1
      split.current.bytes += bytes
      continue
    }
    const id = type === 'session.updated.1' ? agg : ((type === 'message.part.updated.1' ? PART_ID : INFO_ID).exec(head)?.[1] ?? (fallback.get(agg, seq) as string | null))
    if (typeof id !== 'string') {
      split.unkeyed += 1
      split.current.count += 1
      split.current.bytes += bytes
      continue
    }
    const redacted = bytes <= WHOLE_BYTES && isRedactedSnapshot(type, head)
    const key = `${type}\u0000${id}`
    const e = entities.get(key) ?? { newestSeq: -Infinity, newestBytes: 0, newestRedacted: false, count: 0, bytes: 0, redactedCount: 0, redactedBytes: 0 }
    entities.set(key, e)
    e.count += 1
    e.bytes += bytes
    if (redacted) {
      e.redactedCount += 1
      e.redactedBytes += bytes
    }
    if (seq > e.newestSeq) Object.assign(e, { newestSeq: seq, newestBytes: bytes, newestRedacted: redacted })
  }
  flush()
  onRows(rows)
  return split
}

export interface SessionBytesRow {
  id: string
  storage: 'v1' | 'v2'
  title: string | null
  projectID: string
  bytes: number
}

/** Message and part bytes of every session of each readable generation, biggest first. */
export function readSessionBytes(db: SqliteDb, layout: StorageLayout): SessionBytesRow[] {
  const out: SessionBytesRow[] = []
  for (const g of layout.generations) {
    // 1.18's experimental 2.x sessions are rows of `session` too: counted once, with their messages.
    if (g.experimental) continue
    const contentTables = g.sessionTable === 'session' ? ['message', 'part', 'session_message'] : ['session_message']
    const sums = contentTables
      .filter((t) => layout.tables.includes(t))
      .map((t) => `SELECT session_id AS id, sum(octet_length(data)) AS bytes FROM ${t} GROUP BY session_id`)
    if (sums.length === 0) continue
    out.push(
      ...db.allSql<SessionBytesRow>(
        `SELECT s.id AS id, '${g.generation}' AS storage, s.title AS title, s.project_id AS projectID, coalesce(sum(c.bytes), 0) AS bytes
           FROM ${g.sessionTable} s LEFT JOIN (${sums.join(' UNION ALL ')}) c ON c.id = s.id GROUP BY s.id`,
      ),
    )
  }
  return out
}

export interface ProjectRow {
  id: string
  name: string | null
  worktree: string
}

export function readProjects(db: SqliteDb, layout: StorageLayout): ProjectRow[] {
  if (!layout.tables.includes('project')) return []
  return db.allSql<ProjectRow>(`SELECT id, name, worktree FROM project`)
}

export interface ContentBytes {
  toolOutput: number
  reasoning: number
  images: number
  text: number
}

/** Where 1.x part bytes go by content: tool output, reasoning, data-URL images (file parts and tool attachments), text. */
export function readContentBytes(db: SqliteDb, layout: StorageLayout): ContentBytes {
  if (!layout.tables.includes('part')) return { toolOutput: 0, reasoning: 0, images: 0, text: 0 }
  const row = db.getSql<ContentBytes>(
    `SELECT
       coalesce(sum(CASE WHEN t = 'tool' THEN coalesce(octet_length(json_extract(data, '$.state.output')), 0) + coalesce(octet_length(json_extract(data, '$.state.metadata.output')), 0) END), 0) AS toolOutput,
       coalesce(sum(CASE WHEN t = 'reasoning' THEN octet_length(json_extract(data, '$.text')) END), 0) AS reasoning,
       coalesce(sum(CASE WHEN t = 'text' THEN octet_length(json_extract(data, '$.text')) END), 0) AS text,
       coalesce(sum(CASE WHEN t = 'file' AND json_extract(data, '$.url') LIKE 'data:%' THEN octet_length(json_extract(data, '$.url'))
                         WHEN t = 'tool' AND json_type(data, '$.state.attachments') = 'array' THEN
                           (SELECT coalesce(sum(octet_length(json_extract(a.value, '$.url'))), 0) FROM json_each(data, '$.state.attachments') a
                             WHERE json_extract(a.value, '$.url') LIKE 'data:%') END), 0) AS images
     FROM (SELECT json_extract(data, '$.type') AS t, data FROM part)`,
  )
  return row ?? { toolOutput: 0, reasoning: 0, images: 0, text: 0 }
}
