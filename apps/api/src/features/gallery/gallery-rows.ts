import {
  admitRow,
  countRow,
  emptyTally,
  extractGalleryItems,
  GALLERY_BUDGET,
  listRowEntries,
  type GalleryItem,
  type GalleryPosition,
  type MediaBlobInfo,
  type RowEntry,
  type RowKey,
} from '@loupe/domain'
import { AppError } from '../../errors.js'
import type { SqliteDb } from '../../lib/sqlite.js'
import { collectMediaRefs, mediaBlobInfo, mediaRefDigest } from '../../store/media-blob.js'
import type { OpenCodeStore } from '../../store/store.js'
import type { GalleryRowSlot, GalleryStore } from '../../store/gallery.store.js'

/** A row the page admitted and loaded; `entries` starts at `offset` (a cursor may resume mid-row). */
export interface PageRow {
  slot: GalleryRowSlot
  items: GalleryItem[]
  entries: RowEntry[]
  offset: number
  /** Size and type of each blob the row's image files name by `media:` ref (present blobs only). */
  blobs: ReadonlyMap<string, MediaBlobInfo>
}

export type CollectedPage =
  | { kind: 'page'; rows: PageRow[]; next: GalleryPosition | null }
  | { kind: 'blocked'; slot: GalleryRowSlot; resume: GalleryPosition | null }

export interface CollectInput {
  db: SqliteDb
  gallery: GalleryStore
  store: OpenCodeStore
  sessionID: string
  boundary: string | null
  start: GalleryPosition
}


/**
 * Walk rows newest first from `start`, admitting each by its stored size before it loads. Every
 * admitted row is emitted before the cursor advances: a row the budgets refuse becomes the cursor at
 * offset 0, and a page that fills its 64 entries mid-row points at the next entry.
 */
export function collectPage(input: CollectInput): CollectedPage {
  const { db, gallery, sessionID, boundary, start } = input
  const at = (key: RowKey, offset = 0): GalleryPosition => ({ through: start.through, at: key, offset })
  const rows: PageRow[] = []
  let tally = emptyTally()
  let from = start.at
  let inclusive = true
  let skip = start.offset
  for (;;) {
    // Never more rows than the page could still take, plus one to know what follows it: each slot
    // costs a scan of its stored text.
    const want = Math.max(GALLERY_BUDGET.assistantRows - tally.assistantRows, GALLERY_BUDGET.userRows - tally.userRows) + 1
    const slots = gallery.gallerySlots(db, sessionID, from, boundary, want + (inclusive ? 0 : 1)).filter((s) => inclusive || s.key.id !== from.id)
    if (slots.length === 0) return { kind: 'page', rows, next: null }
    for (const [i, slot] of slots.entries()) {
      const admission = admitRow(tally, slot)
      if (admission === 'blocked') return { kind: 'blocked', slot, resume: nextAfter(slots, i, input, at) }
      if (admission === 'stop') return { kind: 'page', rows, next: at(slot.key) }
      tally = countRow(tally, slot)
      // The offset belongs to the cursor's own row; if that row is gone (pruned), start the next one whole.
      const row = loadRow(input, slot, slot.key.id === start.at.id ? skip : 0)
      skip = 0
      rows.push(row)
      const room = GALLERY_BUDGET.entries - tally.entries
      if (row.entries.length > room) {
        row.entries = row.entries.slice(0, room)
        return { kind: 'page', rows, next: at(slot.key, row.offset + room) }
      }
      tally = { ...tally, entries: tally.entries + row.entries.length }
      if (tally.entries === GALLERY_BUDGET.entries) return { kind: 'page', rows, next: nextAfter(slots, i, input, at) }
    }
    from = slots.at(-1)!.key
    inclusive = false
  }
}

function nextAfter(slots: GalleryRowSlot[], i: number, input: CollectInput, at: (key: RowKey) => GalleryPosition): GalleryPosition | null {
  const following = slots[i + 1] ?? input.gallery.gallerySlots(input.db, input.sessionID, slots[i]!.key, input.boundary, 2)[1]
  return following ? at(following.key) : null
}

function loadRow(input: CollectInput, slot: GalleryRowSlot, offset: number): PageRow {
  const items = slot.hasMedia ? loadItems(input, slot.key.id) : []
  return { slot, items, entries: listRowEntries(items).slice(offset), offset, blobs: blobsOf(input, items) }
}

/** The blob rows behind the row's ref-backed image files: sizes and types, never their data. */
function blobsOf(input: CollectInput, items: readonly GalleryItem[]): ReadonlyMap<string, MediaBlobInfo> {
  const files = items.flatMap((item) => (item.kind === 'generate' ? [] : item.files))
  const digests = new Set(files.map((f) => mediaRefDigest(f.uri)).filter((d): d is string => d !== undefined))
  return digests.size > 0 ? mediaBlobInfo(input.db, digests) : new Map()
}

export type ItemSource = Pick<CollectInput, 'db' | 'gallery' | 'store' | 'sessionID'>

/**
 * A row's gallery items, from its native read form with media refs left as stored (a listing goes
 * by blob sizes; only the byte route reads a blob). A row naming a ref on storage whose blob tables
 * are missing or unrecognized cannot be read as OpenCode would: refused, as `unsupported_storage`.
 */
export function loadItems(input: ItemSource, id: string): GalleryItem[] {
  const [message] = input.store.loadMessages(input.db, input.sessionID, [id], { media: 'refs' })
  if (!message) throw new Error(`row ${id} vanished inside one read transaction`)
  // The whole read form (1.x info and parts, 2.x row): a ref anywhere in it could not be inlined.
  if (input.gallery.media !== 'recognized' && collectMediaRefs(message).size > 0) {
    throw new AppError('unsupported_storage', 'This session keeps images as media refs in blob tables Loupe does not recognize, so its gallery cannot be read.')
  }
  return extractGalleryItems(message)
}
