import { decodeBase64Url, encodeBase64Url } from './base64url.js'
import { ID_PATTERN, SHA256_HEX_PATTERN } from './ids.js'
import { LIMITS } from './limits.js'
import { err, ok, type Result } from './result.js'
import { sha256Hex } from './revision.js'

/** The image types the gallery lists (SESSION_PRUNING.md, Image gallery). Anything else is not a gallery image. */
export const GALLERY_MIMES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'] as const
export type GalleryMime = (typeof GALLERY_MIMES)[number]

/** Where an image entry comes from: a file of a `read` tool part, or a file the user pasted. */
export type ImageSource = 'read' | 'pasted'

/**
 * An image file in a transcript, bound to its exact stored form: `digest` is the SHA-256 of the
 * stored URI string (`data:…;base64,…`, or a `media:<sha256>` ref). Hashing the URI rather than the
 * decoded bytes binds the MIME type too, lets a ref-backed image be listed without loading its blob
 * (the ref names the content), and answers every later read with "same bytes or refused".
 */
export interface ImageTarget {
  kind: 'image'
  source: ImageSource
  messageID: string
  /** 1.x: the part's position in id order; 2.x: the `content[]` index (0 for a user row's `files[]`). */
  part: number
  /** The file's index: `state.attachments[]`/`state.content[]` of a read, `files[]` of a 2.x user row, 0 for a 1.x file part. */
  index: number
  digest: string
}

/** An `experimental_image_generate` part; `digest` is SHA-256(part id, NUL, jobID). */
export interface GenerationTarget {
  kind: 'generation'
  messageID: string
  part: number
  digest: string
}

export type GalleryTarget = ImageTarget | GenerationTarget

/** A synchronous SHA-256 of a string's UTF-8 bytes, lowercase hex. The server passes node:crypto's. */
export type HashText = (text: string) => string

const encoder = new TextEncoder()
export const hashTextDefault: HashText = (text) => sha256Hex(encoder.encode(text))

/** The digest an image target carries: SHA-256 of the stored URI. */
export const imageDigest = (uri: string, hash: HashText = hashTextDefault): string => hash(uri)

/** A generation's digest and key: SHA-256 of `partID NUL jobID` (no id appears in the output). */
export const generationDigest = (partID: string, jobID: string, hash: HashText = hashTextDefault): string =>
  hash(`${partID}\u0000${jobID}`)

const INDEX_MAX = LIMITS.pruneIndexMax
const isIndex = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= INDEX_MAX

/** Opaque, URL-safe: base64url of a compact JSON array. Never a path, never SQL. */
export function encodeTarget(target: GalleryTarget): string {
  const tuple =
    target.kind === 'generation'
      ? ['g', target.messageID, target.part, target.digest]
      : [target.source === 'read' ? 'r' : 'p', target.messageID, target.part, target.index, target.digest]
  return encodeBase64Url(JSON.stringify(tuple))
}

/** Inverse of encodeTarget; anything else (wrong shape, foreign ids, bad digest) is `invalid_target`. */
export function decodeTarget(encoded: string): Result<GalleryTarget, 'invalid_target'> {
  if (encoded.length === 0 || encoded.length > 1024) return err('invalid_target')
  const text = decodeBase64Url(encoded)
  if (text === undefined) return err('invalid_target')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return err('invalid_target')
  }
  if (!Array.isArray(value)) return err('invalid_target')
  const [tag, messageID, part] = value as unknown[]
  if (typeof messageID !== 'string' || !ID_PATTERN.test(messageID) || !isIndex(part)) return err('invalid_target')
  if (tag === 'g' && value.length === 4) {
    const digest = value[3]
    if (typeof digest !== 'string' || !SHA256_HEX_PATTERN.test(digest)) return err('invalid_target')
    return ok({ kind: 'generation', messageID, part, digest })
  }
  if ((tag === 'r' || tag === 'p') && value.length === 5) {
    const [, , , index, digest] = value as unknown[]
    if (!isIndex(index) || typeof digest !== 'string' || !SHA256_HEX_PATTERN.test(digest)) return err('invalid_target')
    return ok({ kind: 'image', source: tag === 'r' ? 'read' : 'pasted', messageID, part, index, digest })
  }
  return err('invalid_target')
}

/** `image/PNG; charset=x` → `image/png`, or undefined when it is not one of the gallery types. */
export function galleryMime(mime: unknown): GalleryMime | undefined {
  if (typeof mime !== 'string' || mime.length > 128) return undefined
  const bare = mime.split(';', 1)[0]!.trim().toLowerCase()
  return (GALLERY_MIMES as readonly string[]).includes(bare) ? (bare as GalleryMime) : undefined
}

/** Embedded URIs the gallery serves are at most this long (as CodeNomad's `assets`). */
export const EMBEDDED_URI_MAX = 8 * 1024 * 1024

export interface DataUri {
  mime: GalleryMime
  /** Offset of the base64 body in the URI. */
  bodyStart: number
  /** Decoded size in bytes. */
  bytes: number
}

const BASE64_BODY = /^[A-Za-z0-9+/]*={0,2}$/

/** Whether a base64 body (length ≡ 0 mod 4) uses the base64 alphabet only, padding at the end. */
export type Base64Check = (body: string) => boolean
export const isBase64Body: Base64Check = (body) => BASE64_BODY.test(body)

/**
 * A `data:<gallery mime>;base64,<body>` URI with a non-empty, well-formed body (length ≡ 0 mod 4,
 * base64 alphabet only) of at most 8 MiB; anything else is not servable. The server passes a
 * faster body check than the portable regular expression.
 */
export function parseDataUri(uri: string, check: Base64Check = isBase64Body): DataUri | undefined {
  if (uri.length > EMBEDDED_URI_MAX || !uri.startsWith('data:')) return undefined
  const comma = uri.indexOf(',')
  if (comma < 0 || comma > 200) return undefined
  const header = uri.slice(5, comma)
  if (!header.toLowerCase().endsWith(';base64')) return undefined
  const mime = galleryMime(header.slice(0, -';base64'.length))
  if (!mime) return undefined
  const bodyLength = uri.length - comma - 1
  if (bodyLength === 0 || bodyLength % 4 !== 0) return undefined
  if (!check(uri.slice(comma + 1))) return undefined
  const padding = uri.endsWith('==') ? 2 : uri.endsWith('=') ? 1 : 0
  return { mime, bodyStart: comma + 1, bytes: (bodyLength / 4) * 3 - padding }
}

/** The length of the data URL the native read form makes of `bytes` bytes of type `mime` (as stored). */
export const dataUriLength = (mime: string, bytes: number): number =>
  'data:'.length + mime.length + ';base64,'.length + 4 * Math.ceil(bytes / 3)

/** A media blob as a listing sees it: its row's `size` and `mime`, never its bytes. */
export interface MediaBlobInfo {
  size: number
  mime: string
}

/**
 * What the native read form makes of a `media:<sha256>` ref, judged from the blob's row alone. The
 * ref is inlined as `data:<blob mime>;base64,…`, so it is servable under the rules of an embedded
 * URI: a gallery type equal to the declared one, a non-empty body, at most 8 MiB as a data URL. A
 * missing blob leaves the ref as it is: the unavailable placeholder, with no size.
 */
export function mediaRefImage(declared: GalleryMime, blob: MediaBlobInfo | undefined): { available: boolean; bytes: number } {
  if (!blob) return { available: false, bytes: 0 }
  const available = galleryMime(blob.mime) === declared && blob.size > 0 && dataUriLength(blob.mime, blob.size) <= EMBEDDED_URI_MAX
  return { available, bytes: blob.size }
}

/** Decoded size estimated from the URI alone (no validation); 0 when it is not a base64 data URI. */
export function estimateDataUriBytes(uri: string): number {
  const comma = uri.indexOf(',')
  if (!uri.startsWith('data:') || comma < 0) return 0
  const body = uri.length - comma - 1
  const padding = uri.endsWith('==') ? 2 : uri.endsWith('=') ? 1 : 0
  return Math.max(0, Math.floor(body / 4) * 3 - padding)
}
