import { SHA256_HEX_PATTERN } from '@loupe/domain'
import fs from 'node:fs'
import path from 'node:path'
import type { Metadata } from 'sharp'
import { AppError } from '../../errors.js'

/** Sizes the UI asks for: grid tiles and the lightbox. */
export const THUMBNAIL_SIZES = [256, 1024] as const
export type ThumbnailSize = (typeof THUMBNAIL_SIZES)[number]

/**
 * Decode bounds: the header must admit at most this many pixels per axis and in total (summed over
 * the frames of an animation), checked before any pixel is decoded; sharp enforces the same total
 * again while decoding (`limitInputPixels`).
 */
export const DECODE_BOUNDS = { maxAxis: 16_384, maxPixels: 40_000_000 } as const

export interface Thumbnail {
  body: Buffer
  mime: 'image/webp'
  /** Served from the cache (not rendered by this request). */
  cached: boolean
}

export interface Thumbnailer {
  /** The thumbnail of `bytes` (whose stored digest is `digest`), rendered once and cached by digest and size. */
  get(digest: string, size: ThumbnailSize, bytes: () => Buffer): Promise<Thumbnail>
  /** The cached thumbnail, if any, without rendering. */
  cached(digest: string, size: ThumbnailSize): Buffer | undefined
  /** Drop every size cached for these digests (their images were pruned: no copy outlives them). */
  forget(digests: Iterable<string>): void
}

/** The cache's default size on disk; past it the oldest thumbnails go first (they are re-rendered on demand). */
export const THUMBNAIL_CACHE_BYTES = 512 * 1024 * 1024

// sharp (libvips, a large part of the process's memory) is loaded by the first image that needs it,
// not at start: most sessions of a run never show a thumbnail. The module loader keeps it after the
// first import. A sharp that cannot load is an install problem, not a bad image, and says so.
// libvips' operation cache (up to 50 MB by default) keeps decoded images for a repeat of the same
// operation, which never comes: each image is rendered once per size and its thumbnail cached on disk.
async function loadSharp() {
  try {
    const sharp = (await import('sharp')).default
    sharp.cache(false)
    return sharp
  } catch (error) {
    throw new AppError('unavailable', 'Image support (sharp) could not be loaded: reinstall Loupe (npm start installs what is missing).', { cause: error })
  }
}

/** Reject a hostile image from its header alone: unknown formats, absurd sizes, too many pixels. */
export async function checkDecodeBounds(bytes: Buffer, bounds = DECODE_BOUNDS): Promise<{ width: number; height: number }> {
  let meta: Metadata
  const sharp = await loadSharp()
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata()
  } catch (error) {
    throw new AppError('unavailable', 'This image cannot be decoded.', { cause: error })
  }
  const width = meta.width ?? 0
  const frameHeight = meta.pageHeight ?? meta.height ?? 0
  const frames = Math.max(1, meta.pages ?? 1)
  if (!width || !frameHeight) throw new AppError('unavailable', 'This image has no readable size.')
  if (width > bounds.maxAxis || frameHeight > bounds.maxAxis || width * frameHeight * frames > bounds.maxPixels) {
    throw new AppError('limit', `This image (${width}×${frameHeight}${frames > 1 ? ` × ${frames} frames` : ''}) is too large to preview safely; download it instead.`)
  }
  return { width, height: frameHeight }
}

async function render(bytes: Buffer, size: ThumbnailSize): Promise<Buffer> {
  await checkDecodeBounds(bytes)
  const sharp = await loadSharp()
  try {
    return await sharp(bytes, { limitInputPixels: DECODE_BOUNDS.maxPixels, failOn: 'error', animated: false })
      .rotate()
      .resize(size, size, { fit: 'inside', withoutEnlargement: true })
      // effort 2: about twice as fast as the default for a few percent more bytes
      .webp({ quality: size > 256 ? 82 : 75, effort: 2 })
      .toBuffer()
  } catch (error) {
    throw new AppError('unavailable', 'This image could not be decoded for a preview.', { cause: error })
  }
}

/**
 * Thumbnails in Loupe's data dir (`<dataDir>/thumbnails/ab/<digest>-<size>.webp`), keyed by the
 * stored image's digest: identical images share one file, and a changed image gets a new key. Only
 * a caller that has passed the membership check may ask for one.
 */
export function createThumbnailer(dir: string, maxBytes = THUMBNAIL_CACHE_BYTES): Thumbnailer {
  const inflight = new Map<string, Promise<Buffer>>()
  const fileOf = (digest: string, size: ThumbnailSize) => path.join(dir, digest.slice(0, 2), `${digest}-${size}.webp`)
  const budget = createCacheBudget(dir, maxBytes)
  const cached = (digest: string, size: ThumbnailSize): Buffer | undefined => {
    try {
      return fs.readFileSync(fileOf(digest, size))
    } catch {
      return undefined
    }
  }
  const store = (digest: string, size: ThumbnailSize, body: Buffer) => {
    const file = fileOf(digest, size)
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    fs.writeFileSync(tmp, body, { mode: 0o600 })
    fs.renameSync(tmp, file)
    budget.added(body.length)
  }
  return {
    cached,
    forget(digests) {
      for (const digest of digests) {
        if (!SHA256_HEX_PATTERN.test(digest)) continue
        for (const size of THUMBNAIL_SIZES) fs.rmSync(fileOf(digest, size), { force: true })
      }
    },
    async get(digest, size, bytes) {
      if (!SHA256_HEX_PATTERN.test(digest)) throw new AppError('invalid_input', 'Bad digest.')
      const hit = cached(digest, size)
      if (hit) return { body: hit, mime: 'image/webp', cached: true }
      const key = `${digest}-${size}`
      let job = inflight.get(key)
      if (!job) {
        job = render(bytes(), size).then((body) => {
          store(digest, size, body)
          return body
        })
        inflight.set(key, job)
        void job.finally(() => inflight.delete(key)).catch(() => {})
      }
      return { body: await job, mime: 'image/webp', cached: false }
    },
  }
}

/**
 * Keeps the cache directory under `maxBytes`: the total is measured once, on the first write, and
 * kept as files are added; past the budget the oldest files go until a quarter of it is free, so
 * the walk happens rarely.
 */
function createCacheBudget(dir: string, maxBytes: number): { added(bytes: number): void } {
  let total: number | undefined
  return {
    added(bytes) {
      total = total === undefined ? cacheFiles(dir).reduce((sum, f) => sum + f.size, 0) : total + bytes
      if (total <= maxBytes) return
      const files = cacheFiles(dir).sort((a, b) => a.mtimeMs - b.mtimeMs)
      total = files.reduce((sum, f) => sum + f.size, 0)
      for (const file of files) {
        if (total <= maxBytes * 0.75) break
        fs.rmSync(file.path, { force: true })
        total -= file.size
      }
    },
  }
}

function cacheFiles(dir: string): { path: string; size: number; mtimeMs: number }[] {
  const out: { path: string; size: number; mtimeMs: number }[] = []
  for (const shard of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!shard.isDirectory()) continue
    for (const name of fs.readdirSync(path.join(dir, shard.name))) {
      if (!name.endsWith('.webp')) continue
      const file = path.join(dir, shard.name, name)
      try {
        const stat = fs.statSync(file)
        out.push({ path: file, size: stat.size, mtimeMs: stat.mtimeMs })
      } catch {
        /* removed meanwhile */
      }
    }
  }
  return out
}
