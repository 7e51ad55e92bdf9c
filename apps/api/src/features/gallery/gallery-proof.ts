import {
  generationDigest,
  LIMITS,
  NOTICE_SCAN_ROWS,
  PROOF_RANGE_BYTES,
  PROOF_RANGE_ROWS,
  readNotice,
  resolveLexical,
  stemOf,
  type GalleryItem,
  type GenerateItem,
  type HashText,
  type NoticeScan,
  type ProofCall,
  type ProofContext,
  type RowKey,
} from '@loupe/domain'
import type { SqliteDb } from '../../lib/sqlite.js'
import type { OpenCodeStore } from '../../store/store.js'
import type { GalleryStore, NoticeRow, ProofSlot } from '../../store/gallery.store.js'
import { loadItems } from './gallery-rows.js'

/** A covered assistant row, newest first as read; `items` when already loaded (a page row). */
export interface CoveredRow {
  slot: ProofSlot
  items: GalleryItem[] | undefined
}

export interface ProofInput {
  db: SqliteDb
  gallery: GalleryStore
  store: OpenCodeStore
  sessionID: string
  directory: string
  boundary: string | null
  through: RowKey
  hash: HashText
}

export interface BuiltProof {
  ctx: ProofContext
  /** Row index in `ctx.rows` by message id. */
  rowOf: Map<string, number>
  /** The call built for each generate item (by message id and part). */
  callOf: (messageID: string, part: number) => ProofCall | undefined
  /** The generate item a call was built from (for prompt and model). */
  itemOf: (call: ProofCall) => GenerateItem | undefined
}

/**
 * Up to 32 assistant rows before `before` within 32 MiB: the older rows a proof may need. Sizes only;
 * `reachesStart` is true when the walk stopped at the session's first assistant row.
 */
export function olderRows(input: ProofInput, before: RowKey | null): { rows: ProofSlot[]; reachesStart: boolean } {
  const slots = input.gallery.assistantSlots(input.db, input.sessionID, before, input.boundary, PROOF_RANGE_ROWS)
  const rows: ProofSlot[] = []
  let bytes = 0
  for (const slot of slots) {
    if (bytes + slot.bytes > PROOF_RANGE_BYTES) return { rows, reachesStart: false }
    bytes += slot.bytes
    rows.push(slot)
  }
  return { rows, reachesStart: slots.length < PROOF_RANGE_ROWS }
}

export function toProofCall(item: GenerateItem, row: number, directory: string, hash: HashText): ProofCall {
  const path = item.status === 'completed' && item.path ? resolveLexical(directory, item.path) : undefined
  return {
    key: generationDigest(item.partID, item.jobID ?? '', hash),
    row,
    status: item.status,
    jobID: item.jobID,
    stem: path ? stemOf(path) : undefined,
    parents: item.images.map((name) => resolveLexical(directory, name)),
    ran: item.ran,
    completed: item.completed,
  }
}

/** One scan of at most 4,096 synthetic rows from the lowest covered row to `through`. */
export function scanNotices(input: ProofInput, from: RowKey): NoticeScan {
  const rows = input.gallery.noticeRows(input.db, input.sessionID, from, input.through, input.boundary, NOTICE_SCAN_ROWS + 1)
  const scan: NoticeScan = { complete: rows.length <= NOTICE_SCAN_ROWS, notices: [], undecoded: [] }
  for (const row of rows.slice(0, NOTICE_SCAN_ROWS)) readRow(row, input.directory, scan)
  return scan
}

function readRow(row: NoticeRow, directory: string, scan: NoticeScan) {
  if (row.metadata === null && row.text === null) {
    if (row.suspicious) scan.undecoded.push(row.time)
    return
  }
  let metadata: unknown = null
  try {
    metadata = row.metadata === null ? null : JSON.parse(row.metadata)
  } catch {
    metadata = null
  }
  const reading = readNotice({ time: row.time, metadata, text: row.text }, directory)
  if (reading.kind === 'notice') scan.notices.push(reading.notice)
  else if (reading.kind === 'undecodable') scan.undecoded.push(row.time)
}

/**
 * The proof context over `covered` (assistant rows, newest first) plus the notice scan. Rows whose
 * text names the generate tool are loaded (when not already); the others only count.
 */
export function buildProof(
  input: ProofInput,
  covered: CoveredRow[],
  edges: { reachesStart: boolean; reachesEnd: boolean; alwaysScan: boolean },
): BuiltProof {
  const { reachesStart, reachesEnd } = edges
  const ordered = [...covered].reverse()
  const rowOf = new Map<string, number>()
  const calls: ProofCall[] = []
  const byPart = new Map<string, ProofCall>()
  const sources = new Map<ProofCall, GenerateItem>()
  ordered.forEach(({ slot, items }, row) => {
    rowOf.set(slot.key.id, row)
    const readable = slot.bytes <= LIMITS.messageStoredBytes
    const loaded = items ?? (readable && slot.hasCall ? loadItems(input, slot.key.id) : [])
    for (const item of loaded) {
      if (item.kind !== 'generate') continue
      const call = toProofCall(item, row, input.directory, input.hash)
      calls.push(call)
      byPart.set(`${slot.key.id}:${item.part}`, call)
      sources.set(call, item)
    }
  })
  const lowest = ordered[0]?.slot.key ?? input.through
  // Without a call in the covered rows no image can be proven, so a page may skip the scan; a
  // reference may not (a later notice or undecoded row still refuses it).
  const scan = calls.length > 0 || edges.alwaysScan ? scanNotices(input, lowest) : { complete: true, notices: [], undecoded: [] }
  return {
    ctx: {
      directory: input.directory,
      rows: ordered.map(({ slot }) => ({ bytes: slot.bytes, readable: slot.bytes <= LIMITS.messageStoredBytes })),
      reachesStart,
      reachesEnd,
      calls,
      scan,
    },
    rowOf,
    callOf: (messageID, part) => byPart.get(`${messageID}:${part}`),
    itemOf: (call) => sources.get(call),
  }
}
