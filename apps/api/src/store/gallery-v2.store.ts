import { LIMITS, NOTICE_DECODE_BYTES, type RowKey } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { MediaSupport } from './media-blob.js'
import { GENERATE_TOOL_NAME, mediaTest, readFormBytesSql, type GalleryRowSlot, type GalleryStore, type NoticeRow, type ProofSlot, type RowInfo } from './gallery.store.js'

const ROW_LIMIT = LIMITS.messageStoredBytes
/** `id < boundary` when a revert is staged; a NULL boundary hides nothing. */
const BELOW = `(@boundary IS NULL OR id < @boundary)`

/**
 * 2.x `session_message` rows (also 1.18's experimental rows): one row per message, ordered by
 * `seq` (unique per session, so the id never breaks ties). Sizes come from `octet_length`, which
 * SQLite answers from the record header without reading the text, plus, for media refs (owned by
 * the message row), what inlining them adds, from blob sizes.
 */
export function createGalleryV2Store(media: MediaSupport): GalleryStore {
  const ROW_BYTES = readFormBytesSql(media, 'octet_length(session_message.data)', 'r.part_id = session_message.id')
  const rowInfo = (db: SqliteDb, sessionID: string, messageID: string, boundary: string | null): RowInfo | undefined => {
    const row = db.getSql<{ t: number; id: string; role: string; bytes: number }>(
      `SELECT seq AS t, id, type AS role, ${ROW_BYTES} AS bytes FROM session_message
        WHERE session_id = @sessionID AND id = @messageID AND ${BELOW}`,
      [{ boundary, sessionID, messageID }],
    )
    return row ? { key: { t: row.t, id: row.id }, role: row.role, bytes: row.bytes } : undefined
  }
  return {
    media,
    newestKey(db, sessionID, boundary) {
      return db.getSql<RowKey>(
        `SELECT seq AS t, id FROM session_message
          WHERE session_id = @sessionID AND type IN ('user','assistant','synthetic') AND ${BELOW}
          ORDER BY seq DESC LIMIT 1`,
        [{ boundary, sessionID }],
      )
    },
    gallerySlots(db, sessionID, from, boundary, limit) {
      const rows = db.allSql<{ t: number; id: string; role: 'user' | 'assistant'; bytes: number; time: number; hasMedia: number }>(
        `SELECT seq AS t, id, type AS role, ${ROW_BYTES} AS bytes, time_created AS time,
                CASE WHEN octet_length(data) <= @rowLimit THEN ${mediaTest('data')} ELSE 1 END AS hasMedia
           FROM session_message
          WHERE session_id = @sessionID AND type IN ('user','assistant') AND seq <= @from AND ${BELOW}
          ORDER BY seq DESC LIMIT @limit`,
        [{ boundary, sessionID, from: from.t, limit, rowLimit: ROW_LIMIT }],
      )
      return rows.map((r): GalleryRowSlot => ({ key: { t: r.t, id: r.id }, role: r.role, bytes: r.bytes, time: r.time, hasMedia: r.hasMedia === 1 }))
    },
    assistantSlots(db, sessionID, before, boundary, limit) {
      const rows = db.allSql<{ t: number; id: string; bytes: number; time: number; hasCall: number }>(
        `SELECT seq AS t, id, ${ROW_BYTES} AS bytes, time_created AS time,
                CASE WHEN octet_length(data) <= @rowLimit THEN instr(data, '${GENERATE_TOOL_NAME}') > 0 ELSE 0 END AS hasCall
           FROM session_message
          WHERE session_id = @sessionID AND type = 'assistant' AND (@before IS NULL OR seq < @before) AND ${BELOW}
          ORDER BY seq DESC LIMIT @limit`,
        [{ boundary, sessionID, before: before?.t ?? null, limit, rowLimit: ROW_LIMIT }],
      )
      return rows.map((r): ProofSlot => ({ key: { t: r.t, id: r.id }, bytes: r.bytes, time: r.time, hasCall: r.hasCall === 1 }))
    },
    noticeRows(db, sessionID, from, through, boundary, limit) {
      return db.allSql<NoticeRow>(
        `SELECT time_created AS time, octet_length(data) AS bytes,
                CASE WHEN octet_length(data) <= @decode AND json_valid(data) THEN json_extract(data, '$.metadata') END AS metadata,
                CASE WHEN octet_length(data) <= @decode AND json_valid(data) THEN json_extract(data, '$.text') END AS text,
                CASE WHEN octet_length(data) > @decode
                     THEN instr(data, '${GENERATE_TOOL_NAME}') > 0 OR instr(data, 'Saved image: ') > 0
                     WHEN NOT json_valid(data) THEN 1 END AS suspicious
           FROM session_message
          WHERE session_id = @sessionID AND type = 'synthetic' AND seq >= @from AND seq <= @through AND ${BELOW}
          ORDER BY seq LIMIT @limit`,
        [{ boundary, sessionID, from: from.t, through: through.t, limit, decode: NOTICE_DECODE_BYTES }],
      )
    },
    rowInfo,
    storedFile(db, sessionID, target, boundary) {
      const info = rowInfo(db, sessionID, target.messageID, boundary)
      if (!info) return { status: 'missing' }
      if (info.bytes > ROW_LIMIT) return { status: 'limit', bytes: info.bytes }
      // JSON paths are built from validated integers only and travel as bound parameters.
      const item = target.source === 'read' ? `$.content[${target.part}]` : '$.__none'
      const file = target.source === 'read' ? `${item}.state.content[${target.index}]` : `$.files[${target.index}]`
      const row = db.getSql<{ partType: unknown; tool: unknown; itemType: unknown; uri: unknown; data: unknown; mime: unknown; name: unknown }>(
        `SELECT json_extract(data, @item || '.type') AS partType, json_extract(data, @item || '.name') AS tool,
                json_extract(data, @file || '.type') AS itemType, json_extract(data, @file || '.uri') AS uri,
                json_extract(data, @file || '.data') AS data, json_extract(data, @file || '.mime') AS mime,
                json_extract(data, @file || '.name') AS name
           FROM session_message WHERE session_id = @sessionID AND id = @messageID AND json_valid(data)`,
        [{ item, file, sessionID, messageID: target.messageID }],
      )
      return row ? { status: 'found', role: info.role, ...row } : { status: 'missing' }
    },
  }
}
