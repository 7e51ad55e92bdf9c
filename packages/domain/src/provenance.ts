import { LIMITS } from './limits.js'
import { relativeInside, stemOf } from './location-path.js'

/**
 * Generation provenance: the proof rules of SESSION_PRUNING.md ("Image gallery"), pure. Every
 * input is already decoded and bounded by the caller; every rule fails closed, so anything the
 * context cannot show leaves an image `unverifiable` and a generation `unknown`.
 */

/** Rows a range may span: the item's own row and the 31 assistant rows before it. */
export const PROOF_RANGE_ROWS = 32
export const PROOF_RANGE_BYTES = LIMITS.galleryPageStoredBytes
/** Synthetic rows one notice scan may visit, and the largest row SQLite decodes. */
export const NOTICE_SCAN_ROWS = 4096
export const NOTICE_DECODE_BYTES = 64 * 1024

/** A covered assistant row, oldest first. An unreadable row (over 16 MiB) cuts every range it is in. */
export interface ProofRow {
  bytes: number
  readable: boolean
}

/** An `experimental_image_generate` call in a covered row. */
export interface ProofCall {
  /** SHA-256(part id, NUL, jobID): the generation's key and its target digest. */
  key: string
  /** Index into `ProofContext.rows`. */
  row: number
  status: string
  jobID: string | undefined
  /** The stem it writes: set only for a `completed` call with `metadata.path` (resolved, absolute). */
  stem: string | undefined
  /** `input.images`, each resolved lexically (undefined when it cannot be resolved). */
  parents: (string | undefined)[]
  ran: number | undefined
  completed: number | undefined
}

export type NoticeState = 'completed' | 'error' | 'cancelled'

/** A decoded synthetic notice ("Saved image: <file> (" with `metadata.source|jobID|state|path`). */
export interface ProofNotice {
  time: number
  jobID: string
  state: NoticeState
  /** The file it names, resolved (absolute); undefined when it names none. */
  file: string | undefined
}

export interface NoticeScan {
  /** False when the scan stopped at its row budget before reaching `through`. */
  complete: boolean
  notices: ProofNotice[]
  /** Times of synthetic rows that could be notices but were too large to decode. */
  undecoded: number[]
}

export interface ProofContext {
  /** The session directory (absolute): reads and references outside it have no label. */
  directory: string
  rows: ProofRow[]
  /** rows[0] is the session's first assistant row: a range may stop there without being cut. */
  reachesStart: boolean
  /** The last row is the session's newest assistant row (below the revert boundary). */
  reachesEnd: boolean
  calls: ProofCall[]
  scan: NoticeScan
}

/** A read of file `file` over `[ran, end]`, in row `row`. */
export interface ProofRead {
  row: number
  file: string | undefined
  ran: number | undefined
  end: number | undefined
}

export type GenerationOutcome = NoticeState | 'unknown'

export interface ProvenImage {
  origin: 'generated'
  generationKey: string
  parentKeys: string[]
  otherRefs: number
  call: ProofCall
}

export type ImageProof = ProvenImage | { origin: 'unverifiable' }

export type ReferenceRefusal = 'unverifiable' | 'outside' | 'changed' | 'not-gallery' | 'missing'
export type ReferenceAnswer = { status: 'reference'; path: string } | { status: 'refused'; reason: ReferenceRefusal }

const refused = (reason: ReferenceRefusal): ReferenceAnswer => ({ status: 'refused', reason })

/** Whether the range of an item in `row` (it and the 31 rows before it, within 32 MiB) is whole. */
export function rangeIsWhole(ctx: ProofContext, row: number): boolean {
  const first = row - (PROOF_RANGE_ROWS - 1)
  if (first < 0 && !ctx.reachesStart) return false
  let bytes = 0
  for (let i = Math.max(0, first); i <= row; i++) {
    const r = ctx.rows[i]
    if (!r || !r.readable) return false
    bytes += r.bytes
  }
  return bytes <= PROOF_RANGE_BYTES
}

const rangeStart = (row: number) => Math.max(0, row - (PROOF_RANGE_ROWS - 1))

/** Only a completed call with `metadata.path` names what it writes; every other call may write anything. */
export const mayWrite = (call: ProofCall, file: string): boolean => call.stem === undefined || call.stem === stemOf(file)

const noticesOf = (ctx: ProofContext, jobID: string | undefined) =>
  jobID === undefined ? [] : ctx.scan.notices.filter((n) => n.jobID === jobID)

/** The call's unique decoded notice, when exactly one exists. */
export function singleNotice(ctx: ProofContext, call: ProofCall): ProofNotice | undefined {
  const found = noticesOf(ctx, call.jobID)
  return found.length === 1 ? found[0] : undefined
}

/**
 * A failed attempt settled before `later` started: its single notice reports `error` before that
 * start. Such a call wrote nothing after its notice (the write is the run's last step).
 */
function settledFailureBefore(ctx: ProofContext, call: ProofCall, later: ProofCall): boolean {
  const notice = singleNotice(ctx, call)
  return notice !== undefined && notice.state === 'error' && later.ran !== undefined && notice.time < later.ran
}

/** The one call that may have written `file`, if the rules single one out. */
function uniqueWriter(ctx: ProofContext, file: string, row: number, end: number, exclude?: ProofCall): ProofCall | undefined {
  const first = rangeStart(row)
  const candidates = ctx.calls.filter(
    (c) => c !== exclude && c.row >= first && c.row <= row && mayWrite(c, file) && (c.ran === undefined || c.ran <= end),
  )
  const singled = candidates.filter((c) => candidates.every((o) => o === c || settledFailureBefore(ctx, o, c)))
  return singled.length === 1 ? singled[0] : undefined
}

/**
 * Proof that `file`, read (or used) over `[start, end]` by an item in `row`, was written by exactly
 * one completed generation: the rule shared by read images and by parents of a proven call.
 */
export function proveWriter(
  ctx: ProofContext,
  file: string | undefined,
  row: number,
  start: number | undefined,
  end: number | undefined,
  exclude?: ProofCall,
): ProofCall | undefined {
  if (file === undefined || start === undefined || end === undefined) return undefined
  if (relativeInside(ctx.directory, file) === undefined) return undefined
  if (!ctx.scan.complete || ctx.scan.undecoded.some((t) => t <= end) || !rangeIsWhole(ctx, row)) return undefined
  const call = uniqueWriter(ctx, file, row, end, exclude)
  if (!call || call.status !== 'completed' || call.jobID === undefined || call.ran === undefined) return undefined
  if (call.completed === undefined || !(call.completed < start)) return undefined
  const notice = singleNotice(ctx, call)
  if (!notice || notice.state !== 'completed' || notice.file !== file) return undefined
  if (notice.time < call.ran || notice.time > start) return undefined
  const rival = ctx.scan.notices.some(
    (n) => n !== notice && n.state === 'completed' && n.file === file && n.time >= notice.time && n.time <= end,
  )
  return rival ? undefined : call
}

/** A read image's origin: `generated` with its lineage when proven, else `unverifiable`. */
export function proveImage(ctx: ProofContext, read: ProofRead): ImageProof {
  const call = proveWriter(ctx, read.file, read.row, read.ran, read.end)
  if (!call) return { origin: 'unverifiable' }
  const parentKeys: string[] = []
  let otherRefs = 0
  for (const parent of call.parents) {
    const writer = proveWriter(ctx, parent, call.row, call.ran, call.completed, call)
    if (writer && !parentKeys.includes(writer.key)) parentKeys.push(writer.key)
    else if (!writer) otherRefs++
  }
  return { origin: 'generated', generationKey: call.key, parentKeys, otherRefs, call }
}

/**
 * A generation's outcome: its unique decoded notice's state when the scan establishes it (complete,
 * exactly one notice for its job, no undecoded row from its start on), else `unknown`.
 */
export function generationOutcome(ctx: ProofContext, call: ProofCall): GenerationOutcome {
  if (!ctx.scan.complete || call.jobID === undefined) return 'unknown'
  const since = call.ran
  if (ctx.scan.undecoded.some((t) => since === undefined || t >= since)) return 'unknown'
  return singleNotice(ctx, call)?.state ?? 'unknown'
}

/** The newest 32 assistant rows within 32 MiB reach `row`. */
export function newestReach(ctx: ProofContext, row: number): boolean {
  if (!ctx.reachesEnd) return false
  const count = ctx.rows.length - row
  if (row < 0 || count > PROOF_RANGE_ROWS) return false
  let bytes = 0
  for (let i = row; i < ctx.rows.length; i++) {
    const r = ctx.rows[i]!
    if (!r.readable) return false
    bytes += r.bytes
  }
  return bytes <= PROOF_RANGE_BYTES
}

/**
 * No later write: nothing may have replaced `file` since `from` (a read's start, or a generation's
 * notice time). A call to the same stem or another notice naming the file is `changed`; a call that
 * may write any file, an unknown start, or an undecoded row is `unverifiable`.
 */
function laterWrite(ctx: ProofContext, file: string, from: number, self?: { call: ProofCall; notice: ProofNotice }): ReferenceRefusal | undefined {
  const stem = stemOf(file)
  const others = ctx.calls.filter((c) => c !== self?.call)
  if (others.some((c) => c.stem === stem && c.ran !== undefined && c.ran >= from)) return 'changed'
  if (ctx.scan.notices.some((n) => n !== self?.notice && n.file === file && n.time >= from)) return 'changed'
  if (ctx.scan.undecoded.some((t) => t >= from)) return 'unverifiable'
  if (others.some((c) => (c.stem === undefined || c.stem === stem) && (c.ran === undefined || c.ran >= from))) return 'unverifiable'
  return undefined
}

/** `imageReference` for a read image: its file relative to the session directory, or why not. */
export function referenceRead(ctx: ProofContext, read: ProofRead): ReferenceAnswer {
  if (read.file === undefined || read.ran === undefined) return refused('unverifiable')
  const path = relativeInside(ctx.directory, read.file)
  if (path === undefined) return refused('outside')
  if (!newestReach(ctx, read.row) || !ctx.scan.complete) return refused('unverifiable')
  const later = laterWrite(ctx, read.file, read.ran)
  return later ? refused(later) : { status: 'reference', path }
}

/** `imageReference` for a generation: the file its unique notice names, or why not. */
export function referenceGeneration(ctx: ProofContext, call: ProofCall): ReferenceAnswer {
  if (!ctx.scan.complete || !rangeIsWhole(ctx, call.row)) return refused('unverifiable')
  const notice = singleNotice(ctx, call)
  if (!notice || notice.state !== 'completed' || notice.file === undefined) return refused('unverifiable')
  const file = notice.file
  const path = relativeInside(ctx.directory, file)
  if (path === undefined) return refused('outside')
  if (!newestReach(ctx, call.row)) return refused('unverifiable')
  const first = rangeStart(call.row)
  const unsettledRival = ctx.calls.some(
    (c) =>
      c !== call &&
      c.row >= first &&
      mayWrite(c, file) &&
      (c.ran === undefined || c.ran < notice.time) &&
      (c.completed === undefined || noticesOf(ctx, c.jobID).length === 0),
  )
  if (unsettledRival) return refused('unverifiable')
  const later = laterWrite(ctx, file, notice.time, { call, notice })
  return later ? refused(later) : { status: 'reference', path }
}

/** At most 8 KiB of UTF-8, cut at a character boundary. */
export function truncateUtf8(text: string, maxBytes = 8 * 1024): { text: string; truncated: boolean } {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
    if (bytes + size > maxBytes) return { text: text.slice(0, i), truncated: true }
    bytes += size
    if (code >= 0x10000) i++
  }
  return { text, truncated: false }
}
