import {
  decodeTarget,
  dataUriLength,
  displayName,
  EMBEDDED_URI_MAX,
  galleryMime,
  generationDigest,
  LIMITS,
  mibText,
  parseDataUri,
  referenceGeneration,
  referenceRead,
  resolveLexical,
  type GalleryMime,
  type GalleryTarget,
  type ImageTarget,
  type StorageGeneration,
} from '@loupe/domain'
import { AppError } from '../../errors.js'
import { isBase64BodyFast } from '../../lib/base64.js'
import { sha256Bytes, sha256Text } from '../../lib/hash.js'
import type { SqliteDb } from '../../lib/sqlite.js'
import { mediaRefDigest, readMediaBlob } from '../../store/media-blob.js'
import type { GalleryStore, StoredFileProbe } from '../../store/gallery.store.js'
import { buildProof, olderRows, type ProofInput } from './gallery-proof.js'
import { loadItems } from './gallery-rows.js'
import type { ImageReference, ImageReferenceInput } from './gallery.schema.js'
import { resolveGallery, type GalleryDeps, type GalleryScope } from './gallery.service.js'

export interface LocatedImage {
  mime: GalleryMime
  /** The stored URI's digest: the ETag and the thumbnail cache key. */
  digest: string
  name: string | null
  /** Decode the bytes (after the read transaction; only when they are needed). */
  bytes(): Buffer
}

function decode(target: string): GalleryTarget {
  const decoded = decodeTarget(target)
  if (!decoded.ok) throw new AppError('invalid_input', 'This image link is not valid.')
  return decoded.value
}

/**
 * Membership of a stored file, decided field by field; any mismatch refuses, never substitutes. The
 * digest is checked first: a target whose bytes are gone or changed is simply not there any more
 * (`not_found`), while a file that is there but not a gallery image is `forbidden` (not-gallery).
 */
function checkMembership(target: ImageTarget, probe: StoredFileProbe): { mime: GalleryMime; uri: string; name: string | null } {
  const gone = () => new AppError('not_found', 'This image is no longer in the session (it was changed or removed); reload the gallery.')
  if (probe.status === 'missing') throw gone()
  if (probe.status === 'limit') throw new AppError('limit', `The message holding this image is ${mibText(probe.bytes)}, over the 16 MiB limit.`)
  const declared = typeof probe.mime === 'string' ? probe.mime : ''
  const uri = typeof probe.uri === 'string' ? probe.uri : typeof probe.data === 'string' ? `data:${declared};base64,${probe.data}` : undefined
  if (uri === undefined || sha256Text(uri) !== target.digest) throw gone()
  const isRead = target.source === 'read' && probe.role === 'assistant' && probe.partType === 'tool' && probe.tool === 'read' && probe.itemType === 'file'
  const isPasted = target.source === 'pasted' && probe.role === 'user' && (probe.partType === 'file' || probe.partType === null)
  const mime = galleryMime(probe.mime)
  if (!(isRead || isPasted) || !mime) throw new AppError('forbidden', 'Only images the agent read or you pasted are served (not-gallery).')
  return { mime, uri, name: displayName(typeof probe.name === 'string' ? probe.name : undefined) }
}

/**
 * `imageRead`: one image behind a membership check in the same bounded read (the row is size-checked,
 * then SQLite extracts only the file's fields; a ref-backed file's blob is size-checked by its row,
 * then read). An embedded URL is decoded later, outside the transaction.
 */
export function locateImage(deps: GalleryDeps, sessionID: string, target: string, storage?: StorageGeneration): LocatedImage {
  const decoded = decode(target)
  if (decoded.kind !== 'image') throw new AppError('forbidden', 'A generation has no bytes of its own (not-gallery).')
  const scope = resolveGallery(deps, sessionID, storage)
  const { db } = deps.opencode
  const { member, blob } = db.read(() => {
    const found = checkMembership(decoded, scope.gallery.storedFile(db, scope.session.id, decoded, scope.boundary))
    const ref = mediaRefDigest(found.uri)
    return { member: found, blob: ref === undefined ? undefined : blobBytes(db, scope.gallery, ref, found.mime) }
  })
  if (blob !== undefined) return { mime: member.mime, digest: decoded.digest, name: member.name, bytes: () => blob }
  const parsed = parseDataUri(member.uri, isBase64BodyFast)
  // A file:// URL or a remote one is never opened or fetched: only bytes stored in the transcript are served.
  if (!parsed || parsed.mime !== member.mime) throw new AppError('not_found', 'This image is not stored in the transcript itself (or its data is malformed), so Loupe has no bytes to serve.')
  return { mime: member.mime, digest: decoded.digest, name: member.name, bytes: () => Buffer.from(member.uri.slice(parsed.bodyStart), 'base64') }
}

/**
 * The bytes behind a `media:<sha256>` ref, under the rules the listing applied (the declared type,
 * at most 8 MiB as a data URL). The ref names the content: data whose SHA-256 is not the ref's (a
 * replaced blob), or a row whose size or type changed, is refused, never served in its place.
 */
function blobBytes(db: SqliteDb, gallery: GalleryStore, digest: string, declared: GalleryMime): Buffer {
  if (gallery.media !== 'recognized') {
    throw new AppError('unsupported_storage', 'This image is a media ref into blob tables Loupe does not recognize, so it cannot be served.')
  }
  const changed = () => new AppError('not_found', 'This image\'s stored bytes are gone or were changed; reload the gallery.')
  const read = readMediaBlob(db, digest, (b) => galleryMime(b.mime) === declared && b.size > 0 && dataUriLength(b.mime, b.size) <= EMBEDDED_URI_MAX)
  if (read.status === 'limit') throw new AppError('not_found', 'This image\'s blob is not servable (its type is not the declared one, or it is over 8 MiB as a data URL).')
  if (read.status !== 'found' || sha256Bytes(read.data) !== digest) throw changed()
  return read.data
}

/** `imageReference`: the file a read or a generation names, relative to the session directory, or why not. */
export function imageReference(deps: GalleryDeps, input: ImageReferenceInput): ImageReference {
  const target = decode(input.target)
  const scope = resolveGallery(deps, input.sessionID, input.storage)
  const { db } = deps.opencode
  return db.read(() => referenceIn(deps, scope, target))
}

function referenceIn(deps: GalleryDeps, scope: GalleryScope, target: GalleryTarget): ImageReference {
  const { db } = deps.opencode
  const sessionID = scope.session.id
  const info = scope.gallery.rowInfo(db, sessionID, target.messageID, scope.boundary)
  if (!info) return { status: 'refused', reason: 'missing' }
  if (info.bytes > LIMITS.messageStoredBytes) return { status: 'refused', reason: 'unverifiable' }
  const items = loadItems({ db, gallery: scope.gallery, store: scope.store, sessionID }, target.messageID)
  const item = items.find((i) => i.part === target.part)
  const through = scope.gallery.newestKey(db, sessionID, scope.boundary)
  if (!through) return { status: 'refused', reason: 'missing' }
  const input: ProofInput = {
    db,
    gallery: scope.gallery,
    store: scope.store,
    sessionID,
    directory: scope.session.directory,
    boundary: scope.boundary,
    through,
    hash: sha256Text,
  }
  if (target.kind === 'image') {
    // A pasted image has no file in the location to name.
    if (target.source === 'pasted' || !item || item.kind !== 'read') return { status: 'refused', reason: item || target.source === 'pasted' ? 'not-gallery' : 'missing' }
    const file = item.files.find((f) => f.index === target.index)
    if (!file) return { status: 'refused', reason: 'not-gallery' }
    if (sha256Text(file.uri ?? '') !== target.digest) return { status: 'refused', reason: 'missing' }
    const proof = referenceProof(input, info.key.id)
    const row = proof?.rowOf.get(info.key.id)
    if (!proof || row === undefined) return { status: 'refused', reason: 'unverifiable' }
    const name = item.filePath ?? file.name
    return referenceRead(proof.ctx, { row, file: name ? resolveLexical(scope.session.directory, name) : undefined, ran: item.ran, end: item.end })
  }
  if (!item || item.kind !== 'generate') return { status: 'refused', reason: item ? 'not-gallery' : 'missing' }
  if (generationDigest(item.partID, item.jobID ?? '', sha256Text) !== target.digest) return { status: 'refused', reason: 'missing' }
  const proof = referenceProof(input, info.key.id)
  const call = proof?.callOf(info.key.id, item.part)
  if (!proof || !call) return { status: 'refused', reason: 'unverifiable' }
  return referenceGeneration(proof.ctx, call)
}

/**
 * The reference window: the newest 32 assistant rows within 32 MiB (they must reach the item), plus
 * up to 32 older rows for the item's range, with a complete notice scan to the newest row.
 */
function referenceProof(input: ProofInput, messageID: string) {
  const newest = olderRows(input, null)
  if (!newest.rows.some((r) => r.key.id === messageID)) return undefined
  const oldest = newest.rows.at(-1)?.key ?? null
  const older = newest.reachesStart ? { rows: [], reachesStart: true } : olderRows(input, oldest)
  const covered = [...newest.rows, ...older.rows].map((slot) => ({ slot, items: undefined }))
  return buildProof(input, covered, { reachesStart: older.reachesStart, reachesEnd: true, alwaysScan: true })
}
