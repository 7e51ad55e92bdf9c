import type { FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../errors.js'
import type { LocatedImage } from './gallery-read.service.js'
import type { Thumbnailer } from './thumbnails.js'

export const imageQuery = z.strictObject({
  size: z.enum(['256', '1024']).optional(),
  download: z.enum(['1']).optional(),
})

const safeFileName = (name: string | null, mime: string) => {
  const ext = mime.split('/')[1] === 'jpeg' ? 'jpg' : mime.split('/')[1]
  const base = (name ?? 'image').replace(/[^\w.-]+/g, '_').slice(0, 120) || 'image'
  return base.includes('.') ? base : `${base}.${ext}`
}

/**
 * Send an image (or its thumbnail) the caller is allowed to see. `private, no-cache` with an ETag:
 * a browser may keep the bytes, but asks again each time, so a revoked link or a pruned image stops
 * being served at once.
 */
export async function sendImage(request: FastifyRequest, reply: FastifyReply, image: LocatedImage, thumbnails: Thumbnailer) {
  const query = imageQuery.safeParse(request.query ?? {})
  if (!query.success) throw new AppError('invalid_input', 'Use ?size=256, ?size=1024 or ?download=1.')
  const size = query.data.size ? (Number(query.data.size) as 256 | 1024) : undefined
  const etag = `"${image.digest}${size ? `-${size}` : ''}"`
  void reply
    .header('cache-control', 'private, no-cache')
    .header('etag', etag)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cross-origin-resource-policy', 'same-origin')
  if (request.headers['if-none-match'] === etag) return reply.code(304).send()
  if (size) {
    const thumb = await thumbnails.get(image.digest, size, image.bytes)
    return reply.type(thumb.mime).header('x-loupe-thumbnail', thumb.cached ? 'cached' : 'rendered').send(thumb.body)
  }
  const disposition = query.data.download ? 'attachment' : 'inline'
  return reply
    .type(image.mime)
    .header('content-disposition', `${disposition}; filename="${safeFileName(image.name, image.mime)}"`)
    .send(image.bytes())
}
