import { galleryMime, type GalleryMime } from './image-target.js'
import type { JsonObject, NativeMessage } from './native.js'
import { isObject, num, obj, str } from './json-read.js'

/** The tool whose parts the design calls generations (not upstream: see opencode-storage.md §12). */
export const GENERATE_TOOL = 'experimental_image_generate'

/** One image file inside a part: the stored URI, as it is (data URL, media ref, or anything else). */
export interface GalleryFile {
  index: number
  mime: GalleryMime
  /** The stored URI; a 2.0.x user file `{data, mime}` is read as `data:<mime as stored>;base64,<data>`. */
  uri: string | undefined
  /** The file's own name as stored (a basename is derived for display; paths never leave the API). */
  name: string | undefined
}

/** A `read` tool part holding image files (1.x `state.attachments[]`, 2.x `state.content[]`). */
export interface ReadItem {
  kind: 'read'
  part: number
  status: string
  /** The path the tool was given (`input.filePath` in 1.x, `input.path` in 2.x), as stored. */
  filePath: string | undefined
  /** Execution interval: 1.x `state.time.start/end`, 2.x `time.ran/completed`. */
  ran: number | undefined
  end: number | undefined
  files: GalleryFile[]
}

/** Image files the user pasted: a 1.x `file` part of a user message, or a 2.x user row's `files[]`. */
export interface PastedItem {
  kind: 'pasted'
  part: number
  files: GalleryFile[]
}

/** An `experimental_image_generate` call, read from the design's field list only. */
export interface GenerateItem {
  kind: 'generate'
  part: number
  /** 1.x part id, 2.x tool item id: half of the generation digest. */
  partID: string
  status: string
  jobID: string | undefined
  /** `state.metadata.path`: the stem the call writes; only meaningful on a completed call. */
  path: string | undefined
  prompt: string | undefined
  model: string | undefined
  /** `state.input.images`: the references the generation was given. */
  images: string[]
  /** Start of execution (2.x `time.ran`, 1.x `state.time.start`); undefined when unknown. */
  ran: number | undefined
  completed: number | undefined
}

export type GalleryItem = ReadItem | PastedItem | GenerateItem

type Json = JsonObject

function fileOf(value: unknown, index: number, uriKey: 'url' | 'uri'): GalleryFile | undefined {
  if (!isObject(value)) return undefined
  const mime = galleryMime(value.mime)
  if (!mime) return undefined
  let uri = str(value[uriKey])
  // 2.0.x user files keep the bytes as `data` (base64) next to `mime` instead of a URI.
  // (The declared type is kept as stored, so the digest matches what the byte route rebuilds.)
  if (uri === undefined && typeof value.data === 'string') uri = `data:${String(value.mime)};base64,${value.data}`
  return { index, mime, uri, name: str(value.filename) ?? str(value.name) }
}

function filesOf(list: unknown, uriKey: 'url' | 'uri', onlyFileItems: boolean): GalleryFile[] {
  if (!Array.isArray(list)) return []
  const out: GalleryFile[] = []
  list.forEach((item, index) => {
    if (onlyFileItems && obj(item).type !== 'file') return
    const file = fileOf(item, index, uriKey)
    if (file) out.push(file)
  })
  return out
}

function modelName(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  const m = obj(value)
  const id = str(m.id) ?? str(m.modelID)
  const provider = str(m.providerID)
  return id ? (provider ? `${provider}/${id}` : id) : undefined
}

function generateItem(part: number, partID: string, state: Json, ran: number | undefined, completed: number | undefined): GenerateItem {
  const input = obj(state.input)
  const metadata = obj(state.metadata)
  const images = Array.isArray(input.images) ? input.images.filter((i): i is string => typeof i === 'string') : []
  return {
    kind: 'generate',
    part,
    partID,
    status: str(state.status) ?? 'unknown',
    jobID: str(metadata.jobID),
    path: str(metadata.path),
    prompt: str(input.prompt),
    model: modelName(metadata.model),
    images,
    ran,
    completed,
  }
}

function v1Items(role: unknown, parts: Json[]): GalleryItem[] {
  const out: GalleryItem[] = []
  parts.forEach((p, part) => {
    if (role === 'user' && p.type === 'file') {
      const file = fileOf(p, 0, 'url')
      if (file) out.push({ kind: 'pasted', part, files: [file] })
      return
    }
    if (role !== 'assistant' || p.type !== 'tool') return
    const state = obj(p.state)
    const time = obj(state.time)
    if (p.tool === 'read') {
      const files = filesOf(state.attachments, 'url', false)
      if (files.length) {
        const filePath = str(obj(state.input).filePath) ?? str(obj(state.input).path)
        out.push({ kind: 'read', part, status: str(state.status) ?? 'unknown', filePath, ran: num(time.start), end: num(time.end), files })
      }
    } else if (p.tool === GENERATE_TOOL) {
      out.push(generateItem(part, str(p.id) ?? '', state, num(time.start), num(time.end)))
    }
  })
  return out
}

function v2Items(message: Json): GalleryItem[] {
  const out: GalleryItem[] = []
  if (message.type === 'user') {
    const files = filesOf(message.files, 'uri', false)
    if (files.length) out.push({ kind: 'pasted', part: 0, files })
    return out
  }
  if (message.type !== 'assistant' || !Array.isArray(message.content)) return out
  message.content.forEach((item, part) => {
    const c = obj(item)
    if (c.type !== 'tool') return
    const state = obj(c.state)
    const time = obj(c.time)
    if (c.name === 'read') {
      const files = filesOf(state.content, 'uri', true)
      if (files.length) {
        const input = obj(state.input)
        const filePath = str(input.path) ?? str(input.filePath)
        out.push({ kind: 'read', part, status: str(state.status) ?? 'unknown', filePath, ran: num(time.ran), end: num(time.completed), files })
      }
    } else if (c.name === GENERATE_TOOL) {
      out.push(generateItem(part, str(c.id) ?? '', state, num(time.ran), num(time.completed)))
    }
  })
  return out
}

/**
 * The gallery's view of one message in native read form, in part and file order: image files of
 * `read` parts, images the user pasted, and `experimental_image_generate` calls. Pure; unknown
 * shapes yield nothing rather than a guess.
 */
export function extractGalleryItems(message: NativeMessage): GalleryItem[] {
  if (message.omitted) return []
  return message.storage === 'v1' ? v1Items(message.info.role, message.parts) : v2Items(message.message)
}

/**
 * The stored URIs of the image files inside the given parts (content indexes) of a message: what
 * a prune of those parts takes away, so derived copies (thumbnails) can go with it.
 */
export function imageUrisInParts(message: NativeMessage, parts: readonly number[]): string[] {
  const wanted = new Set(parts)
  const uris: string[] = []
  for (const item of extractGalleryItems(message)) {
    if (item.kind === 'generate' || !wanted.has(item.part)) continue
    for (const file of item.files) if (file.uri !== undefined) uris.push(file.uri)
  }
  return uris
}

/** The last segment of a stored name or path, for display and download (never the path itself). */
export function displayName(name: string | undefined): string | null {
  if (!name) return null
  const base = name.split(/[\\/]/).filter(Boolean).at(-1)
  return base ? base.slice(0, 256) : null
}

/** One gallery entry of a row, before it is rendered: an image file of an item, or a generation. */
export type RowEntry =
  | { kind: 'image'; item: ReadItem | PastedItem; file: GalleryFile }
  | { kind: 'generation'; item: GenerateItem }

/** A row's entries in part and file order; a cursor offset counts in this list. */
export function listRowEntries(items: readonly GalleryItem[]): RowEntry[] {
  const out: RowEntry[] = []
  for (const item of items) {
    if (item.kind === 'generate') out.push({ kind: 'generation', item })
    else for (const file of item.files) out.push({ kind: 'image', item, file })
  }
  return out
}
