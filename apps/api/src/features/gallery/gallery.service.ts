import {
  COMPANION_METADATA_KEY,
  decodeGalleryCursor,
  encodeGalleryCursor,
  fitEntries,
  galleryBinding,
  ID_PATTERN,
  IMAGES_COMPANION,
  utf8Length,
  type GalleryPosition,
  type StorageGeneration,
} from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import { sha256Text } from '../../lib/hash.js'
import type { GalleryStore } from '../../store/gallery.store.js'
import type { SessionRecord } from '../../store/store.js'
import { resolveSession, type ResolvedSession } from '../../store/resolve-session.js'
import { renderEntries } from './gallery-entries.js'
import { buildProof, olderRows, type CoveredRow, type ProofInput } from './gallery-proof.js'
import { collectPage, type PageRow } from './gallery-rows.js'
import type { GalleryImagesInput, GalleryPage } from './gallery.schema.js'

/** The gallery reads the opened OpenCode file only. */
export type GalleryDeps = Pick<AppDeps, 'opencode'>

/** The revert boundary: rows with `id >= revert.messageID` are hidden from every gallery read. */
export function revertBoundary(session: SessionRecord): string | null {
  const id = session.revert?.messageID
  return typeof id === 'string' && ID_PATTERN.test(id) ? id : null
}

/** Images in a root session marked `codenomad.companion: images` may carry prompt and model. */
export const promptsAllowed = (session: SessionRecord): boolean =>
  session.parentID === null && session.metadata?.[COMPANION_METADATA_KEY] === IMAGES_COMPANION

export interface GalleryScope extends ResolvedSession {
  gallery: GalleryStore
  boundary: string | null
  binding: string
}

export function resolveGallery(deps: GalleryDeps, sessionID: string, storage?: StorageGeneration): GalleryScope {
  const resolved = resolveSession(deps.opencode, sessionID, storage)
  const gallery = resolved.store.gallery
  const boundary = revertBoundary(resolved.session)
  const binding = galleryBinding({ storage: resolved.session.storage, sessionID: resolved.session.id, boundary })
  return { ...resolved, gallery, boundary, binding }
}

/**
 * One page of a session's images, newest first, recomputed from the transcript inside one read
 * transaction: no cache, no index, no file access. `shared` pages never carry prompts.
 */
export function listImages(deps: GalleryDeps, input: GalleryImagesInput, options: { shared?: boolean } = {}): GalleryPage {
  const scope = resolveGallery(deps, input.sessionID, input.storage)
  const { db } = deps.opencode
  const granted = !options.shared && promptsAllowed(scope.session)
  return db.read((): GalleryPage => {
    let start: GalleryPosition
    if (input.cursor) {
      const decoded = decodeGalleryCursor(input.cursor, scope.binding)
      if (!decoded.ok && decoded.error === 'conflict') return { status: 'blocked', reason: 'conflict' }
      if (!decoded.ok) throw new AppError('invalid_cursor', 'This gallery cursor is not valid; reload the gallery.')
      start = decoded.value
    } else {
      const through = scope.gallery.newestKey(db, scope.session.id, scope.boundary)
      if (!through) return { status: 'page', entries: [], cursor: null, promptsGranted: granted, scanned: { rows: 0, bytes: 0 } }
      start = { through, at: through, offset: 0 }
    }
    const collected = collectPage({ db, gallery: scope.gallery, store: scope.store, sessionID: scope.session.id, boundary: scope.boundary, start })
    const cursor = (p: GalleryPosition | null) => (p ? encodeGalleryCursor(scope.binding, p) : null)
    if (collected.kind === 'blocked') {
      const { slot } = collected
      return { status: 'blocked', reason: 'limit', messageID: slot.key.id, bytes: slot.bytes, resume: cursor(collected.resume) }
    }
    const proofInput: ProofInput = {
      db,
      gallery: scope.gallery,
      store: scope.store,
      sessionID: scope.session.id,
      directory: scope.session.directory,
      boundary: scope.boundary,
      through: start.through,
      hash: sha256Text,
    }
    const proof = pageProof(proofInput, collected.rows)
    const entries = renderEntries(collected.rows, { directory: scope.session.directory, hash: sha256Text, proof, prompts: granted && input.prompts === true })
    // The 1 MiB serialized budget: entries that do not fit become the cursor (the next entry).
    const fit = fitEntries(entries.map((e) => utf8Length(JSON.stringify(e))))
    let next = collected.next
    if (fit < entries.length) {
      const positions = collected.rows.flatMap((row) => row.entries.map((_, i) => ({ key: row.slot.key, offset: row.offset + i })))
      const cut = positions[fit]!
      next = { through: start.through, at: cut.key, offset: cut.offset }
    }
    const scanned = { rows: collected.rows.length, bytes: collected.rows.reduce((sum, r) => sum + r.slot.bytes, 0) }
    return { status: 'page', entries: entries.slice(0, fit), cursor: cursor(next), promptsGranted: granted, scanned }
  })
}

/**
 * The proof window of a page: its assistant rows plus up to 32 older ones within 32 MiB. Skipped
 * when the page has no read image and no generation (nothing to prove).
 */
function pageProof(input: ProofInput, rows: readonly PageRow[]) {
  const needed = rows.some((r) => r.entries.some((e) => e.kind === 'generation' || e.item.kind === 'read'))
  if (!needed) return null
  const assistants = rows.filter((r) => r.slot.role === 'assistant')
  const oldest = rows.at(-1)?.slot.key ?? null
  const older = olderRows(input, oldest)
  const covered: CoveredRow[] = [
    ...assistants.map((r) => ({ slot: { key: r.slot.key, bytes: r.slot.bytes, time: r.slot.time, hasCall: false }, items: r.items })),
    ...older.rows.map((slot) => ({ slot, items: undefined })),
  ]
  return buildProof(input, covered, { reachesStart: older.reachesStart, reachesEnd: false, alwaysScan: false })
}
