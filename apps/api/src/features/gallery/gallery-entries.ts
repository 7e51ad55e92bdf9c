import {
  displayName,
  encodeTarget,
  estimateDataUriBytes,
  generationDigest,
  generationOutcome,
  mediaRefImage,
  parseDataUri,
  proveImage,
  resolveLexical,
  truncateUtf8,
  type GenerateItem,
  type GalleryFile,
  type HashText,
  type ImageProof,
  type RowEntry,
} from '@loupe/domain'
import { isBase64BodyFast } from '../../lib/base64.js'
import { mediaRefDigest } from '../../store/media-blob.js'
import type { BuiltProof } from './gallery-proof.js'
import type { PageRow } from './gallery-rows.js'
import type { GalleryEntry, GenerationEntry, ImageEntry, NativeStatus, PromptFields } from './gallery.schema.js'

export interface EntryContext {
  directory: string
  hash: HashText
  proof: BuiltProof | null
  /** Add prompt and model (granted only in a marked Images session). */
  prompts: boolean
}

const STATUSES = new Set<NativeStatus>(['streaming', 'pending', 'running', 'completed', 'error'])

function promptFields(item: GenerateItem | undefined): PromptFields {
  if (!item) return {}
  const out: PromptFields = {}
  if (item.prompt !== undefined) {
    const { text, truncated } = truncateUtf8(item.prompt)
    out.prompt = text
    if (truncated) out.promptTruncated = true
  }
  if (item.model !== undefined) out.model = item.model.slice(0, 256)
  return out
}

/**
 * Whether the file's bytes can be served, and their size, from what was listed: an embedded data URL
 * is checked as it is; a `media:` ref is judged by its blob's row (size and type), never its data.
 */
function storedImage(row: PageRow, file: GalleryFile, uri: string): { available: boolean; bytes: number } {
  const ref = mediaRefDigest(uri)
  if (ref !== undefined) return mediaRefImage(file.mime, row.blobs.get(ref))
  const parsed = parseDataUri(uri, isBase64BodyFast)
  return { available: parsed !== undefined && parsed.mime === file.mime, bytes: parsed?.bytes ?? estimateDataUriBytes(uri) }
}

function imageEntry(row: PageRow, entry: Extract<RowEntry, { kind: 'image' }>, ctx: EntryContext): ImageEntry {
  const { item, file } = entry
  const uri = file.uri ?? ''
  const digest = ctx.hash(uri)
  const { available, bytes } = storedImage(row, file, uri)
  const source = item.kind === 'read' ? 'read' : 'pasted'
  let proof: ImageProof = { origin: 'unverifiable' }
  const rowIndex = ctx.proof?.rowOf.get(row.slot.key.id)
  if (item.kind === 'read' && ctx.proof && rowIndex !== undefined) {
    const name = item.filePath ?? file.name
    const read = { row: rowIndex, file: name ? resolveLexical(ctx.directory, name) : undefined, ran: item.ran, end: item.end }
    proof = proveImage(ctx.proof.ctx, read)
  }
  const out: ImageEntry = {
    kind: 'image',
    target: encodeTarget({ kind: 'image', source, messageID: row.slot.key.id, part: item.part, index: file.index, digest }),
    source,
    origin: proof.origin,
    mime: file.mime,
    bytes,
    available,
    name: displayName(file.name ?? (item.kind === 'read' ? item.filePath : undefined)),
    time: row.slot.time,
    messageID: row.slot.key.id,
    part: item.part,
  }
  if (proof.origin === 'generated') {
    Object.assign(out, { generationKey: proof.generationKey, parentKeys: proof.parentKeys, otherRefs: proof.otherRefs })
    if (ctx.prompts) Object.assign(out, promptFields(ctx.proof?.itemOf(proof.call)))
  }
  return out
}

function generationEntry(row: PageRow, item: GenerateItem, ctx: EntryContext): GenerationEntry {
  const key = generationDigest(item.partID, item.jobID ?? '', ctx.hash)
  const call = ctx.proof?.callOf(row.slot.key.id, item.part)
  const status = STATUSES.has(item.status as NativeStatus) ? (item.status as NativeStatus) : 'unknown'
  return {
    kind: 'generation',
    target: encodeTarget({ kind: 'generation', messageID: row.slot.key.id, part: item.part, digest: key }),
    status,
    outcome: ctx.proof && call ? generationOutcome(ctx.proof.ctx, call) : 'unknown',
    generationKey: item.jobID ? key : null,
    time: row.slot.time,
    messageID: row.slot.key.id,
    part: item.part,
    ...(ctx.prompts ? promptFields(item) : {}),
  }
}

/** A page row's entries, in part and file order, rendered for the API. */
export function renderEntries(rows: readonly PageRow[], ctx: EntryContext): GalleryEntry[] {
  return rows.flatMap((row) => row.entries.map((e) => (e.kind === 'image' ? imageEntry(row, e, ctx) : generationEntry(row, e.item, ctx))))
}

/** What a share link may see: no transcript location, no prompt or model. */
export function sharedEntry(entry: GalleryEntry): GalleryEntry {
  const { messageID: _m, part: _p, prompt: _prompt, promptTruncated: _t, model: _model, ...rest } = entry
  return rest as GalleryEntry
}
