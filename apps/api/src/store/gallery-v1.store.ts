import { LIMITS, NOTICE_DECODE_BYTES, type RowKey } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { MediaSupport } from './media-blob.js'
import { GENERATE_TOOL_NAME, mediaTest, readFormBytesSql, type GalleryRowSlot, type GalleryStore, type NoticeRow, type ProofSlot, type RowInfo } from './gallery.store.js'

const ROW_LIMIT = LIMITS.messageStoredBytes
const BELOW = `(@boundary IS NULL OR m.id < @boundary)`
const ROLE = `CASE WHEN json_valid(m.data) THEN json_extract(m.data, '$.role') END`
/** A 1.x "row" is a message with its parts: the info JSON plus every part's stored JSON. */
const STORED_BYTES = `octet_length(m.data) + coalesce((SELECT sum(octet_length(p.data)) FROM part p WHERE p.message_id = m.id), 0)`
/** 1.x media refs are owned by their part (`blob_ref.part_id` = `part.id`). */
const OWNED_BY_ROW = `r.part_id IN (SELECT p.id FROM part p WHERE p.message_id = m.id)`

/**
 * OpenCode 1.x: a gallery row is a message (`message`, ordered by `time_created, id`) with its
 * parts (`part`, in id order); its size is the message's stored JSON plus all its parts', in read
 * form (media refs counted by blob size). The design's synthetic notice rows map to synthetic `text`
 * parts (`synthetic: true`), dated by their message.
 */
export function createGalleryV1Store(media: MediaSupport): GalleryStore {
  const ROW_BYTES = readFormBytesSql(media, STORED_BYTES, OWNED_BY_ROW)
  const rowInfo = (db: SqliteDb, sessionID: string, messageID: string, boundary: string | null): RowInfo | undefined => {
    const row = db.getSql<{ t: number; id: string; role: string | null; bytes: number }>(
      `SELECT m.time_created AS t, m.id, ${ROLE} AS role, ${ROW_BYTES} AS bytes FROM message m
        WHERE m.session_id = @sessionID AND m.id = @messageID AND ${BELOW}`,
      [{ boundary, sessionID, messageID }],
    )
    return row ? { key: { t: row.t, id: row.id }, role: row.role, bytes: row.bytes } : undefined
  }
  return {
    media,
    newestKey(db, sessionID, boundary) {
      return db.getSql<RowKey>(
        `SELECT m.time_created AS t, m.id FROM message m
          WHERE m.session_id = @sessionID AND ${BELOW} AND ${ROLE} IN ('user','assistant')
          ORDER BY m.time_created DESC, m.id DESC LIMIT 1`,
        [{ boundary, sessionID }],
      )
    },
    gallerySlots(db, sessionID, from, boundary, limit) {
      const rows = db.allSql<{ t: number; id: string; role: 'user' | 'assistant'; bytes: number; hasMedia: number }>(
        `SELECT m.time_created AS t, m.id, ${ROLE} AS role, ${ROW_BYTES} AS bytes,
                EXISTS (SELECT 1 FROM part p WHERE p.message_id = m.id AND ${mediaTest('p.data')}) AS hasMedia
           FROM message m
          WHERE m.session_id = @sessionID AND (m.time_created, m.id) <= (@t, @id) AND ${BELOW} AND ${ROLE} IN ('user','assistant')
          ORDER BY m.time_created DESC, m.id DESC LIMIT @limit`,
        [{ boundary, sessionID, t: from.t, id: from.id, limit }],
      )
      return rows.map((r): GalleryRowSlot => ({ key: { t: r.t, id: r.id }, role: r.role, bytes: r.bytes, time: r.t, hasMedia: r.bytes > ROW_LIMIT || r.hasMedia === 1 }))
    },
    assistantSlots(db, sessionID, before, boundary, limit) {
      const rows = db.allSql<{ t: number; id: string; bytes: number; hasCall: number }>(
        `SELECT m.time_created AS t, m.id, ${ROW_BYTES} AS bytes,
                EXISTS (SELECT 1 FROM part p WHERE p.message_id = m.id AND instr(p.data, '${GENERATE_TOOL_NAME}') > 0) AS hasCall
           FROM message m
          WHERE m.session_id = @sessionID AND (@t IS NULL OR (m.time_created, m.id) < (@t, @id)) AND ${BELOW}
            AND ${ROLE} = 'assistant'
          ORDER BY m.time_created DESC, m.id DESC LIMIT @limit`,
        [{ boundary, sessionID, t: before?.t ?? null, id: before?.id ?? '', limit }],
      )
      return rows.map((r): ProofSlot => ({ key: { t: r.t, id: r.id }, bytes: r.bytes, time: r.t, hasCall: r.bytes <= ROW_LIMIT && r.hasCall === 1 }))
    },
    noticeRows(db, sessionID, from, through, boundary, limit) {
      return db.allSql<NoticeRow>(
        `SELECT m.time_created AS time, octet_length(p.data) AS bytes,
                CASE WHEN octet_length(p.data) <= @decode AND json_valid(p.data) THEN json_extract(p.data, '$.metadata') END AS metadata,
                CASE WHEN octet_length(p.data) <= @decode AND json_valid(p.data) THEN json_extract(p.data, '$.text') END AS text,
                CASE WHEN octet_length(p.data) > @decode
                     THEN instr(p.data, '${GENERATE_TOOL_NAME}') > 0 OR instr(p.data, 'Saved image: ') > 0
                     WHEN NOT json_valid(p.data) THEN 1 END AS suspicious
           FROM message m JOIN part p ON p.message_id = m.id
          WHERE m.session_id = @sessionID AND ${BELOW}
            AND (m.time_created, m.id) >= (@fromT, @fromID) AND (m.time_created, m.id) <= (@throughT, @throughID)
            AND instr(p.data, '"synthetic":true') > 0
            AND (octet_length(p.data) > @decode OR NOT json_valid(p.data)
                 OR (json_extract(p.data, '$.type') = 'text' AND json_extract(p.data, '$.synthetic') = 1))
          ORDER BY m.time_created, m.id, p.id LIMIT @limit`,
        [{ boundary, sessionID, fromT: from.t, fromID: from.id, throughT: through.t, throughID: through.id, limit, decode: NOTICE_DECODE_BYTES }],
      )
    },
    rowInfo,
    storedFile(db, sessionID, target, boundary) {
      const info = rowInfo(db, sessionID, target.messageID, boundary)
      if (!info) return { status: 'missing' }
      if (info.bytes > ROW_LIMIT) return { status: 'limit', bytes: info.bytes }
      // JSON paths are built from validated integers only and travel as bound parameters.
      const file = target.source === 'read' ? `$.state.attachments[${target.index}]` : '$'
      const pick = (path: string) => `CASE WHEN json_valid(data) THEN json_extract(data, ${path}) END`
      const row = db.getSql<{ partType: unknown; tool: unknown; itemType: unknown; uri: unknown; mime: unknown; name: unknown }>(
        `SELECT ${pick(`'$.type'`)} AS partType, ${pick(`'$.tool'`)} AS tool, ${pick(`@file || '.type'`)} AS itemType,
                ${pick(`@file || '.url'`)} AS uri, ${pick(`@file || '.mime'`)} AS mime, ${pick(`@file || '.filename'`)} AS name
           FROM part WHERE message_id = @messageID AND session_id = @sessionID ORDER BY id LIMIT 1 OFFSET @part`,
        [{ file, sessionID, messageID: target.messageID, part: target.part }],
      )
      return row ? { status: 'found', role: info.role, ...row, data: null } : { status: 'missing' }
    },
  }
}
