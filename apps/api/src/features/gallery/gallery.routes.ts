import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { AppError } from '../../errors.js'
import { sessionIdSchema, storageSchema } from '../../store/session-ids.schema.js'
import { locateImage } from './gallery-read.service.js'
import type { GalleryDeps } from './gallery.service.js'
import { targetSchema } from './gallery.schema.js'
import { imageQuery, sendImage } from './image-response.js'
import type { Thumbnailer } from './thumbnails.js'

const params = z.strictObject({ sessionID: sessionIdSchema, target: targetSchema })
const ownerQuery = imageQuery.extend({ storage: storageSchema.optional() })

/** Image bytes and thumbnails in the owner's scope (behind the owner token). */
export function registerGalleryRoutes(app: FastifyInstance, deps: GalleryDeps, thumbnails: Thumbnailer) {
  app.get('/api/sessions/:sessionID/images/:target', async (request, reply) => {
    const parsed = params.safeParse(request.params)
    const query = ownerQuery.safeParse(request.query ?? {})
    if (!parsed.success || !query.success) throw new AppError('invalid_input', 'Bad session id, image target or query.')
    const { storage, ...rest } = query.data
    const image = locateImage(deps, parsed.data.sessionID, parsed.data.target, storage)
    request.query = rest
    return sendImage(request, reply, image, thumbnails)
  })
}
