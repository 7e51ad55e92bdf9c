import { bindScope, decodeCursor, encodeCursor, type CursorError } from './cursor.js'
import type { StorageGeneration } from './ids.js'
import { LIMITS } from './limits.js'
import type { Result } from './result.js'

/**
 * Paging rules of `images` (SESSION_PRUNING.md, Image gallery), as pure functions over row sizes:
 * a page holds at most 32 assistant rows, 32 MiB of stored JSON (each row size-checked before it
 * loads), 64 entries and 1 MiB serialized. Loupe also lists pasted images, so user rows load too;
 * they count toward the bytes and, separately, at most 32 per page.
 */
export const GALLERY_BUDGET = {
  assistantRows: LIMITS.galleryPageMessages,
  userRows: LIMITS.galleryPageMessages,
  storedBytes: LIMITS.galleryPageStoredBytes,
  rowBytes: LIMITS.messageStoredBytes,
  entries: LIMITS.galleryPageEntries,
  serializedBytes: LIMITS.galleryPageSerializedBytes,
} as const
export type GalleryBudget = { [K in keyof typeof GALLERY_BUDGET]: number }

/** A row's position: 2.x `seq`, 1.x `time_created` (`t`), with the id as tie-break. */
export interface RowKey {
  t: number
  id: string
}

/** A row known by its size alone (nothing loaded yet). */
export interface GallerySlot {
  key: RowKey
  role: 'assistant' | 'user'
  bytes: number
}

export interface PageTally {
  assistantRows: number
  userRows: number
  storedBytes: number
  entries: number
  serializedBytes: number
}

export const emptyTally = (): PageTally => ({ assistantRows: 0, userRows: 0, storedBytes: 0, entries: 0, serializedBytes: 0 })

/**
 * What to do with the next row, newest first: `load` it, `stop` the page before it (the row
 * becomes the cursor at offset 0), or `blocked` when the row alone is over the 16 MiB limit.
 */
export type Admission = 'load' | 'stop' | 'blocked'

export function admitRow(tally: PageTally, slot: GallerySlot, budget: GalleryBudget = GALLERY_BUDGET): Admission {
  const rowsSoFar = tally.assistantRows + tally.userRows
  if (slot.bytes > budget.rowBytes) return rowsSoFar > 0 ? 'stop' : 'blocked'
  if (slot.role === 'assistant' && tally.assistantRows >= budget.assistantRows) return 'stop'
  if (slot.role === 'user' && tally.userRows >= budget.userRows) return 'stop'
  if (tally.storedBytes + slot.bytes > budget.storedBytes) return 'stop'
  return 'load'
}

export function countRow(tally: PageTally, slot: GallerySlot): PageTally {
  return {
    ...tally,
    assistantRows: tally.assistantRows + (slot.role === 'assistant' ? 1 : 0),
    userRows: tally.userRows + (slot.role === 'user' ? 1 : 0),
    storedBytes: tally.storedBytes + slot.bytes,
  }
}

/** Whether one more entry of `bytes` serialized fits; a page always takes its first entry. */
export function entryFits(tally: PageTally, bytes: number, budget: GalleryBudget = GALLERY_BUDGET): boolean {
  if (tally.entries >= budget.entries) return false
  return tally.entries === 0 || tally.serializedBytes + bytes <= budget.serializedBytes
}

export function countEntry(tally: PageTally, bytes: number): PageTally {
  return { ...tally, entries: tally.entries + 1, serializedBytes: tally.serializedBytes + bytes }
}

/**
 * How many of `sizes` (serialized entry sizes, in page order) fit in the entry and byte budgets;
 * at least one when there is one.
 */
export function fitEntries(sizes: readonly number[], budget: GalleryBudget = GALLERY_BUDGET): number {
  let tally = emptyTally()
  let n = 0
  for (const size of sizes) {
    if (!entryFits(tally, size, budget)) break
    tally = countEntry(tally, size)
    n++
  }
  return n
}

/**
 * Where the next page starts: the row at `at` (inclusive), skipping its first `offset` entries.
 * `through` is fixed by the first page, so rows written later never shift the pages.
 */
export interface GalleryPosition {
  through: RowKey
  at: RowKey
  offset: number
}

const CURSOR_KIND = 'gallery'

/** The scope a gallery cursor is bound to: one session of one generation, below one revert boundary. */
export function galleryBinding(scope: { storage: StorageGeneration; sessionID: string; boundary: string | null }): string {
  return bindScope({ kind: CURSOR_KIND, ...scope })
}

const isKey = (k: unknown): k is RowKey =>
  typeof k === 'object' && k !== null && Number.isSafeInteger((k as RowKey).t) && typeof (k as RowKey).id === 'string' && (k as RowKey).id.length <= 256

const isPosition = (p: unknown): p is GalleryPosition => {
  const v = p as GalleryPosition
  return typeof v === 'object' && v !== null && isKey(v.through) && isKey(v.at) && Number.isInteger(v.offset) && v.offset >= 0 && v.offset <= 100_000
}

export const encodeGalleryCursor = (binding: string, position: GalleryPosition): string =>
  encodeCursor(CURSOR_KIND, binding, position)

/** `conflict` when the cursor belongs to another session or boundary; `invalid_cursor` when malformed. */
export const decodeGalleryCursor = (cursor: string, binding: string): Result<GalleryPosition, CursorError> =>
  decodeCursor(cursor, CURSOR_KIND, binding, isPosition)
