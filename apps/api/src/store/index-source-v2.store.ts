import { messageSearchDocs } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { ownSessionsWhere } from './experimental-rows.js'
import { countRows, createSessionReads, existingIds, lastRowidOf, stampsOf } from './index-source-sessions.js'
import type { IndexSourceStore, SourceRow } from './index-source.js'
import type { GenerationLayout, StorageLayout } from './probe.js'
import { parseObject } from './parse-object.js'

/** A 2.x `session_message` row. */
export interface V2MessageRow extends SourceRow {
  id: string
  type: string
  time_created: number
  data: string
}

const COLUMNS = `rowid AS rid, id, session_id, type, time_created, time_updated, data, octet_length(data) AS len`
const CONTENT_INDEX = /^\d+$/

/**
 * OpenCode 2.x (and 1.18's experimental rows) as the search index reads it: the documents of a
 * `session_message` row are its assistant content items (keyed by index) or its own text.
 */
export function createV2IndexSource(layout: GenerationLayout, storage: StorageLayout): IndexSourceStore<V2MessageRow> {
  return {
    gen: 'v2',
    cursorKeys: { watermark: 'v2After', horizon: 'h2' },
    // A row holds a whole message: about four 1.x parts.
    rowsPerRead: 64,
    ...createSessionReads('v2', layout.sessionTable, ownSessionsWhere(layout, storage, layout.sessionTable)),
    count: (db) => countRows(db, 'session_message'),
    lastRowid: (db) => lastRowidOf(db, 'session_message'),
    chunk: (db: SqliteDb, after: number, limit: number, upTo = Number.MAX_SAFE_INTEGER) =>
      db.allSql<V2MessageRow>(`SELECT ${COLUMNS} FROM session_message WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?`, [after, upTo, limit]),
    stamps: (db, after, upTo) => stampsOf(db, 'session_message', after, upTo),
    sessionRows: (db, sessionID, since) =>
      db.allSql<V2MessageRow>(`SELECT ${COLUMNS} FROM session_message WHERE session_id = ? AND time_updated >= ?`, [sessionID, since]),
    messageRows: (db, messageID) => db.allSql<V2MessageRow>(`SELECT ${COLUMNS} FROM session_message WHERE id = ?`, [messageID]),
    liveKeys: (db, sessionID) => new Set(db.pluckSql<string>(`SELECT id FROM session_message WHERE session_id = ?`, [sessionID])),
    sourceKey: (doc) => doc.message_id,
    existing: (db, keys) => existingIds(db, 'session_message', keys),
    docs(row, scope, emit) {
      const data = parseObject(row.data)
      if (!data) return
      for (const { key, ...fields } of messageSearchDocs(row.type, data)) {
        emit({ gen: 'v2', sessionID: row.session_id, messageID: row.id, partKey: key, fields, time: row.time_created, srcUpdated: row.time_updated, ...scope })
      }
    },
    owner: (row) => ({ sessionID: row.session_id, messageID: row.id, partKey: null }),
    locate: (partKey) => (CONTENT_INDEX.test(partKey) ? { index: Number(partKey) } : {}),
  }
}
