import { partSearchFields } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { ownSessionsWhere } from './experimental-rows.js'
import { countRows, createSessionReads, existingIds, lastRowidOf, stampsOf } from './index-source-sessions.js'
import { TITLE_KEY, type IndexSourceStore, type SourceRow } from './index-source.js'
import type { GenerationLayout, StorageLayout } from './probe.js'
import { parseObject } from './parse-object.js'

/**
 * A 1.x `part` row. `data` holds only what a search document reads from the part (`SEARCH`):
 * null when the part has nothing to search.
 */
export interface V1PartRow extends SourceRow {
  id: string
  message_id: string
  time_created: number
  data: string | null
  /** Its message's role, read for text parts only: the one kind of part whose document depends on it. */
  role: string | null
}

// SQLite picks out the paths `partSearchFields` reads (JSON values kept as they are, so JS sees
// the same types) from parts of the types it indexes. Step markers, patches, file parts with
// inline images and the rest of a tool's state (metadata, attachments) never cross into JS: the
// index build reads and parses about a third of the bytes it would from whole rows.
// `json_valid` is strict JSON, as `JSON.parse` is (SQLite's other functions also take JSON5).
const SEARCHABLE = `json_valid(data) AND data ->> '$.type' IN ('text', 'reasoning', 'tool', 'subtask')`
const SEARCH = `CASE WHEN ${SEARCHABLE} THEN json_object(
  'type', data -> '$.type', 'text', data -> '$.text', 'tool', data -> '$.tool',
  'description', data -> '$.description', 'prompt', data -> '$.prompt',
  'state', json_object('title', data -> '$.state.title', 'input', data -> '$.state.input',
    'output', data -> '$.state.output', 'error', data -> '$.state.error')) END`
const ROLE = `CASE WHEN json_valid(data) AND data ->> '$.type' = 'text' THEN
  (SELECT CASE WHEN json_valid(m.data) THEN m.data ->> '$.role' END FROM message m WHERE m.id = part.message_id) END`
const COLUMNS = `rowid AS rid, id, message_id, session_id, time_created, time_updated, ${SEARCH} AS data, ${ROLE} AS role, octet_length(data) AS len`

/** OpenCode 1.x as the search index reads it: one document per `part` row. */
export function createV1IndexSource(layout: GenerationLayout, storage: StorageLayout): IndexSourceStore<V1PartRow> {
  return {
    gen: 'v1',
    cursorKeys: { watermark: 'v1After', horizon: 'h1' },
    rowsPerRead: 256,
    ...createSessionReads('v1', 'session', ownSessionsWhere(layout, storage, 'session')),
    count: (db) => countRows(db, 'part'),
    lastRowid: (db) => lastRowidOf(db, 'part'),
    chunk: (db: SqliteDb, after: number, limit: number, upTo = Number.MAX_SAFE_INTEGER) =>
      db.allSql<V1PartRow>(`SELECT ${COLUMNS} FROM part WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?`, [after, upTo, limit]),
    stamps: (db, after, upTo) => stampsOf(db, 'part', after, upTo),
    sessionRows: (db, sessionID, since) =>
      db.allSql<V1PartRow>(`SELECT ${COLUMNS} FROM part WHERE session_id = ? AND time_updated >= ?`, [sessionID, since]),
    messageRows: (db, messageID) => db.allSql<V1PartRow>(`SELECT ${COLUMNS} FROM part WHERE message_id = ?`, [messageID]),
    liveKeys: (db, sessionID) => new Set(db.pluckSql<string>(`SELECT id FROM part WHERE session_id = ?`, [sessionID])),
    sourceKey: (doc) => doc.part_key,
    existing: (db, keys) => existingIds(db, 'part', keys),
    docs(row, scope, emit) {
      if (row.data === null) return
      const part = parseObject(row.data)
      const fields = part && partSearchFields(part, row.role ?? 'unknown')
      if (!fields) return
      emit({
        gen: 'v1', sessionID: row.session_id, messageID: row.message_id, partKey: row.id, fields,
        time: row.time_created, srcUpdated: row.time_updated, ...scope,
      })
    },
    owner: (row) => ({ sessionID: row.session_id, messageID: row.message_id, partKey: row.id }),
    locate: (partKey) => (partKey === TITLE_KEY ? {} : { partID: partKey }),
  }
}
