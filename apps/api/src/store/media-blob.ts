import type { SqliteDb } from '../lib/sqlite.js'
import type { StorageLayout } from './probe.js'

/**
 * Media-blob storage (SESSION_PRUNING.md `media-blob.ts`). Not upstream OpenCode (opencode-storage.md
 * §12): a part names media by a whole-string ref `media:<sha256 hex>`; the bytes live in `blob`,
 * owned through `blob_ref`. The recognized shape, after the fork in §12 with the bytes in the row:
 *
 *   blob(digest TEXT PK, size INTEGER, mime TEXT, data BLOB, …)          one row per distinct media
 *   blob_ref(part_id TEXT, slot TEXT, digest TEXT → blob.digest, …)      who keeps a blob alive
 *
 * `blob_ref.part_id` is the owning 1.x `part.id`, or the owning 2.x `session_message.id`.
 * The native read form inlines each ref as `data:<mime>;base64,…`; a ref whose blob is missing stays
 * `media:<sha256>` (the unavailable placeholder). Rows naming no ref are never touched. A ref-backed
 * row on storage without these tables, or with tables of another shape, is `unsupported_storage`.
 */
export type MediaSupport = 'absent' | 'recognized' | 'unrecognized'

const BLOB_COLUMNS = ['digest', 'size', 'mime', 'data'] as const
const REF_COLUMNS = ['part_id', 'slot', 'digest'] as const
const REF = /^media:([a-f0-9]{64})$/
const PREFIX = 'media:'

/** Whether this file carries media blobs Loupe understands. */
export function mediaSupport(layout: Pick<StorageLayout, 'tables' | 'columns'>): MediaSupport {
  const has = (t: string) => layout.tables.includes(t)
  if (!has('blob') && !has('blob_ref')) return 'absent'
  const covers = (t: string, cols: readonly string[]) => has(t) && cols.every((c) => layout.columns[t]?.includes(c))
  return covers('blob', BLOB_COLUMNS) && covers('blob_ref', REF_COLUMNS) ? 'recognized' : 'unrecognized'
}

/** Cheap test on stored JSON text before any walk: could this row name a media ref? */
export const mayHoldMediaRef = (text: string): boolean => text.includes(`"${PREFIX}`)

/** The digest of a whole-string ref, or undefined. */
export function mediaRefDigest(value: unknown): string | undefined {
  return typeof value === 'string' && value.startsWith(PREFIX) ? REF.exec(value)?.[1] : undefined
}

/** Every digest a JSON value names, anywhere inside it. */
export function collectMediaRefs(value: unknown, into = new Set<string>()): Set<string> {
  const digest = mediaRefDigest(value)
  if (digest) into.add(digest)
  else if (Array.isArray(value)) for (const v of value) collectMediaRefs(v, into)
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) collectMediaRefs(v, into)
  return into
}

function mapRefs(value: unknown, resolve: (digest: string) => string | undefined): unknown {
  const digest = mediaRefDigest(value)
  if (digest) return resolve(digest) ?? value
  if (Array.isArray(value)) return value.map((v) => mapRefs(v, resolve))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapRefs(v, resolve)]))
  }
  return value
}

/** The read form of `value`: each ref whose blob exists becomes a data URL. Values without refs come back as is. */
export function inlineMediaRefs<T>(db: SqliteDb, value: T): T {
  const digests = collectMediaRefs(value)
  if (digests.size === 0) return value
  const urls = new Map<string, string>()
  for (const digest of digests) {
    const row = db.getSql<{ mime: string; data: Buffer | null }>(`SELECT mime, data FROM blob WHERE digest = ?`, [digest])
    if (row?.data) urls.set(digest, `data:${row.mime};base64,${Buffer.from(row.data).toString('base64')}`)
  }
  return mapRefs(value, (d) => urls.get(d)) as T
}

/** Sizes and types of blobs by digest, without reading their bytes (for listings by size). */
export function mediaBlobInfo(db: SqliteDb, digests: Iterable<string>): Map<string, { size: number; mime: string }> {
  const out = new Map<string, { size: number; mime: string }>()
  for (const digest of digests) {
    const row = db.getSql<{ size: number; mime: string }>(`SELECT size, mime FROM blob WHERE digest = ?`, [digest])
    if (row) out.set(digest, row)
  }
  return out
}

/**
 * SQL: how many characters the read form of a row adds to its stored form, from blob rows alone
 * (never their data). Each `blob_ref` row whose owner passes `ownerTest` (SQL over `r.part_id`)
 * stands for one ref, inlined as `data:<mime>;base64,…` in place of the 70-character
 * `media:<sha256>`; a ref whose blob is missing stays as stored and adds nothing.
 */
export const readFormGrowthSql = (ownerTest: string): string =>
  `coalesce((SELECT sum(13 + length(b.mime) + 4 * ((b.size + 2) / 3) - ${PREFIX.length + 64})
               FROM blob_ref r JOIN blob b ON b.digest = r.digest WHERE ${ownerTest}), 0)`

export type MediaBlobBytes =
  | { status: 'missing' }
  /** The row's `size` disagrees with its stored data (or the data is not a BLOB): not what was listed. */
  | { status: 'inconsistent' }
  | { status: 'limit'; size: number; mime: string }
  | { status: 'found'; size: number; mime: string; data: Buffer }

/**
 * One blob's bytes, bounded: its row is checked first (size, type, and the stored length SQLite
 * knows without reading the data), and the data is read only when `fits` admits the row.
 */
export function readMediaBlob(db: SqliteDb, digest: string, fits: (blob: { size: number; mime: string }) => boolean): MediaBlobBytes {
  const row = db.getSql<{ size: unknown; mime: unknown; type: string; length: number | null }>(
    `SELECT size, mime, typeof(data) AS type, octet_length(data) AS length FROM blob WHERE digest = ?`,
    [digest],
  )
  if (!row) return { status: 'missing' }
  if (typeof row.size !== 'number' || typeof row.mime !== 'string' || row.type !== 'blob' || row.length !== row.size) return { status: 'inconsistent' }
  const info = { size: row.size, mime: row.mime }
  if (!fits(info)) return { status: 'limit', ...info }
  const data = db.getSql<{ data: Buffer }>(`SELECT data FROM blob WHERE digest = ?`, [digest])?.data
  return data ? { status: 'found', ...info, data } : { status: 'missing' }
}

/**
 * Inside a prune transaction: drop the `blob_ref` rows that only removed parts named, then every
 * blob among those digests that no ref keeps. `owners` are the removed 1.x part ids, or the 2.x
 * message id whose content lost the refs; `kept` are the digests surviving parts still name.
 */
export function releaseMediaRefs(
  db: SqliteDb,
  input: { owners: readonly string[]; removed: ReadonlySet<string>; kept: ReadonlySet<string> },
): { refs: number; blobs: number } {
  const released = [...input.removed].filter((d) => !input.kept.has(d))
  let refs = 0
  let blobs = 0
  for (const owner of input.owners) {
    for (const digest of released) refs += db.runSql(`DELETE FROM blob_ref WHERE part_id = ? AND digest = ?`, [owner, digest])
  }
  for (const digest of released) {
    blobs += db.runSql(`DELETE FROM blob WHERE digest = ? AND NOT EXISTS (SELECT 1 FROM blob_ref WHERE blob_ref.digest = blob.digest)`, [digest])
  }
  return { refs, blobs }
}
