import { LIMITS } from '@loupe/domain'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { AppDeps } from '../deps.js'
import { AppError } from '../errors.js'
import { createFailureLimiter } from '../http/failure-limiter.js'
import { sharedEntry } from '../features/gallery/gallery-entries.js'
import { locateImage } from '../features/gallery/gallery-read.service.js'
import { targetSchema } from '../features/gallery/gallery.schema.js'
import { listImages } from '../features/gallery/gallery.service.js'
import { sendImage } from '../features/gallery/image-response.js'
import type { Thumbnailer } from '../features/gallery/thumbnails.js'
import { lookupShare, sessionOf, shareStatus, type OpenShare } from './shares.service.js'

const tokenParams = z.object({ token: z.string().max(200) })
const imageParams = tokenParams.extend({ target: targetSchema })
const pageQuery = z.strictObject({ cursor: z.string().min(1).max(LIMITS.cursorChars).optional() })

const GONE: Record<string, string> = {
  revoked: 'This share link was revoked by its owner.',
  expired: 'This share link has expired.',
}

/**
 * The second door: `/api/shared/:token/…` answers one session's gallery pages, images and
 * thumbnails, read-only, to whoever holds the token, and nothing else. It has its own scope, no
 * owner auth and no tRPC; every request re-checks the token, and unknown tokens are rate-limited
 * per address (a valid link never is: a phone behind the same NAT as a guesser still opens it).
 */
export async function shareRoutes(app: FastifyInstance, deps: AppDeps, thumbnails: Thumbnailer) {
  const limiter = createFailureLimiter({ max: 20, windowMs: 60_000, clock: deps.clock })

  app.addHook('onRequest', async (_request, reply) => {
    void reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex, nofollow')
  })

  const authorize = (request: FastifyRequest, reply: FastifyReply): OpenShare | undefined => {
    const token = tokenParams.safeParse(request.params).data?.token ?? ''
    const found = lookupShare(deps, token)
    if (found.ok) return found.share
    if (found.status === 404) {
      if (limiter.blocked(request.ip)) {
        void reply.code(429).header('retry-after', '60').send({ error: 'too_many_requests', message: 'Too many unknown links from this address; wait a minute.' })
        return undefined
      }
      limiter.fail(request.ip)
    }
    void reply
      .code(found.status)
      .header('cache-control', 'no-store')
      .send({ error: found.status === 404 ? 'not_found' : 'gone', message: GONE[found.reason] ?? 'No such share link.' })
    return undefined
  }

  app.get('/api/shared/:token/images', async (request, reply) => {
    const share = authorize(request, reply)
    if (!share) return reply
    const query = pageQuery.safeParse(request.query ?? {})
    if (!query.success) throw new AppError('invalid_input', 'Bad cursor.')
    const page = listImages(deps, { sessionID: share.session_id, storage: share.storage, ...query.data }, { shared: true })
    const session = sessionOf(deps, share)
    let body: Record<string, unknown> = page
    if (page.status === 'page') {
      const { promptsGranted: _granted, ...rest } = page
      body = { ...rest, entries: page.entries.map(sharedEntry) }
    }
    void reply.header('cache-control', 'no-store')
    return { ...body, share: { title: session?.title ?? null, expiresAt: share.expires_at, status: shareStatus(share, deps.clock.now()) } }
  })

  app.get('/api/shared/:token/images/:target', async (request, reply) => {
    const share = authorize(request, reply)
    if (!share) return reply
    const params = imageParams.safeParse(request.params)
    if (!params.success) throw new AppError('invalid_input', 'Bad image link.')
    const image = locateImage(deps, share.session_id, params.data.target, share.storage)
    return sendImage(request, reply, image, thumbnails)
  })
}
