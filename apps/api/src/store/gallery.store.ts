import type { GallerySlot, ImageTarget, RowKey } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { readFormGrowthSql, type MediaSupport } from './media-blob.js'

/** A gallery row (user or assistant) known by size: 2.x a `session_message` row, 1.x a message with its parts. */
export interface GalleryRowSlot extends GallerySlot {
  time: number
  /**
   * Whether the stored text could hold a gallery entry at all (it names an image type or the generate
   * tool). A row that cannot is still counted against the budgets, but is never parsed.
   */
  hasMedia: boolean
}

/** An assistant row for proofs; `hasCall` says the stored text names the generate tool (unset when not asked). */
export interface ProofSlot {
  key: RowKey
  bytes: number
  time: number
  hasCall: boolean
}

/** A synthetic row of the notice scan; `metadata`/`text` are decoded by SQLite only up to 64 KiB. */
export interface NoticeRow {
  time: number
  bytes: number
  metadata: string | null
  text: string | null
  /** For rows too large to decode: whether the stored text could hold a notice at all. */
  suspicious: number | null
}

/** One stored file, read field by field by SQLite (the row itself is never parsed in JS). */
export type StoredFileProbe =
  | { status: 'missing' }
  | { status: 'limit'; bytes: number }
  | {
      status: 'found'
      role: string | null
      /** The part (1.x) or content item (2.x) type and tool name; null for a 2.x user row's files. */
      partType: unknown
      tool: unknown
      /** The file item's own `type` (2.x tool content items are `{type:'file'}`). */
      itemType: unknown
      uri: unknown
      data: unknown
      mime: unknown
      name: unknown
    }

export interface RowInfo {
  key: RowKey
  role: string | null
  bytes: number
}

/** The gallery's reads of one storage generation; the boundary hides rows with `id >= boundary`. */
export interface GalleryStore {
  /** Media-blob storage (store/media-blob.ts): row sizes include what inlining refs adds when recognized. */
  readonly media: MediaSupport
  /** The newest user, assistant or synthetic row: the first page's `through`. */
  newestKey(db: SqliteDb, sessionID: string, boundary: string | null): RowKey | undefined
  /** User and assistant rows at or before `from`, newest first. */
  gallerySlots(db: SqliteDb, sessionID: string, from: RowKey, boundary: string | null, limit: number): GalleryRowSlot[]
  /** Assistant rows strictly before `before` (or the newest when null), newest first. */
  assistantSlots(db: SqliteDb, sessionID: string, before: RowKey | null, boundary: string | null, limit: number): ProofSlot[]
  /** Synthetic rows with `from <= key <= through`, oldest first, at most `limit`. */
  noticeRows(db: SqliteDb, sessionID: string, from: RowKey, through: RowKey, boundary: string | null, limit: number): NoticeRow[]
  rowInfo(db: SqliteDb, sessionID: string, messageID: string, boundary: string | null): RowInfo | undefined
  storedFile(db: SqliteDb, sessionID: string, target: ImageTarget, boundary: string | null): StoredFileProbe
}

export const GENERATE_TOOL_NAME = 'experimental_image_generate'

/**
 * SQL over a text column `col`: could it hold an image MIME type or a generate call? A CASE stops at
 * the first hit (an OR of `instr` calls would scan a large row once per alternative).
 */
export const mediaTest = (col: string) =>
  `(CASE WHEN instr(${col}, 'mage/') > 0 THEN 1 WHEN instr(${col}, 'MAGE/') > 0 THEN 1 WHEN instr(${col}, '${GENERATE_TOOL_NAME}') > 0 THEN 1 ELSE 0 END)`

/**
 * SQL for the size of a row in its native read form, measured without loading a blob: the stored
 * size plus, on recognized media-blob storage, what inlining its refs adds (`blob.size`, `blob.mime`).
 * Elsewhere refs cannot be inlined, and a row naming one is refused when it loads (gallery-rows.ts).
 */
export const readFormBytesSql = (media: MediaSupport, storedBytes: string, ownerTest: string): string =>
  media === 'recognized' ? `(${storedBytes} + ${readFormGrowthSql(ownerTest)})` : `(${storedBytes})`
