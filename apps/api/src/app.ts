import fastifyStatic from '@fastify/static'
import { LIMITS } from '@loupe/domain'
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify'
import { getHTTPStatusCodeFromError } from '@trpc/server/http'
import { TRPCError } from '@trpc/server'
import path from 'node:path'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify'
import type { AppDeps } from './deps.js'
import { isAppError } from './errors.js'
import { registerGalleryRoutes } from './features/gallery/gallery.routes.js'
import { createThumbnailer } from './features/gallery/thumbnails.js'
import { createOwnerAuth } from './http/auth.js'
import { createHostGuard } from './http/host-guard.js'
import { capConnectionsPerAddress, fastifyServerOptions } from './http/server-limits.js'
import { createSpa, unauthorizedPage } from './http/spa.js'
import { collectAfterBusyWork, REQUEST_WORK_MS } from './lib/heap-collector.js'
import { mcpRoutes } from './mcp/mcp.routes.js'
import { shareRoutes } from './share/share.routes.js'
import { appRouter, type AppRouter } from './trpc/app-router.js'
import { createContextFactory } from './trpc/context.js'
import { APP_ERROR_TO_TRPC } from './trpc/errors.js'

export interface BuildOptions {
  logger?: boolean
  /** Request handling (ms) after which the server's heap is collected once it is idle (`REQUEST_WORK_MS`). */
  requestWorkMs?: number
}

// A path with a file extension (a bundle, an icon) that was not found is a 404, never the SPA shell.
const wantsHtml = (request: FastifyRequest) =>
  request.method === 'GET' && !request.url.startsWith('/trpc') && !request.url.startsWith('/api/') &&
  !/\.[a-z0-9]{1,8}$/i.test(new URL(request.url, 'http://x').pathname)

/**
 * The whole server, without listening: host guard everywhere but /healthz; the owner's scope
 * (tRPC, image bytes, the SPA) behind the token; share links in their own scope.
 */
export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: LIMITS.requestBodyBytes,
    routerOptions: { maxParamLength: 5000 },
    ...fastifyServerOptions(deps.config.serverLimits),
  })
  capConnectionsPerAddress(app.server, deps.config.serverLimits.connectionsPerAddress)
  const guard = createHostGuard(deps.config.allowedHostNames, deps.config.port)
  const auth = createOwnerAuth(deps.config.token, deps.clock)
  const spa = createSpa(deps.config.webRoot)
  const thumbnails = createThumbnailer(path.join(deps.config.dataDir, 'thumbnails'))
  // A pruned image keeps no derived copy in Loupe's data dir either.
  const forgetPrunedImages = deps.events.subscribe('imagesPruned', ({ digests }) => thumbnails.forget(digests))

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = isAppError(error)
      ? getHTTPStatusCodeFromError(new TRPCError({ code: APP_ERROR_TO_TRPC[error.code] }))
      : (error.statusCode ?? 500)
    if (status >= 500 && !isAppError(error)) request.log.error({ err: error }, 'request failed')
    const code = isAppError(error) ? error.code : (error.code ?? 'error')
    void reply.code(status).send({ error: code, message: status < 500 || isAppError(error) ? error.message : 'Internal error' })
  })

  app.get('/healthz', async () => ({ ok: true }))
  // How long the server held each request, in Server-Timing (DevTools shows it; the search bench
  // splits its round trips with it), taken once the answer is ready to write. The same time counts
  // towards the heap's collection: searches, gallery pages and plans leave their garbage in this
  // thread's old generation, below the limit at which V8 would collect it.
  const started = new WeakMap<FastifyRequest, number>()
  const requestWork = collectAfterBusyWork(deps.heap, options.requestWorkMs ?? REQUEST_WORK_MS)
  app.addHook('onSend', async (request, reply, payload) => {
    const ms = performance.now() - (started.get(request) ?? performance.now())
    void reply.header('server-timing', `app;dur=${ms.toFixed(3)}`)
    requestWork(ms, true)
    return payload
  })

  app.addHook('onRequest', async (request, reply) => {
    started.set(request, performance.now())
    if (request.url === '/healthz') return
    if (!guard(request, reply)) return reply
  })

  if (spa.available && deps.config.webRoot) {
    // Hashed bundles hold no data; the share page needs them without the owner's cookie.
    await app.register(fastifyStatic, {
      root: deps.config.webRoot,
      prefix: '/',
      index: false,
      wildcard: false,
      allowedPath: (pathName) => pathName !== '/index.html',
      maxAge: '1h',
    })
  }

  await app.register(async (owner) => {
    owner.addHook('onRequest', async (request, reply) => {
      if (!auth.isOwner(request)) return auth.refuse(request, reply)
    })
    const trpcOptions = {
      router: appRouter,
      createContext: createContextFactory(deps),
      onError({ error, path }) {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ err: error.cause ?? error, path }, 'procedure failed')
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions']
    // A scope of its own: the plugin replaces the JSON and multipart body parsers for its route alone.
    await owner.register(fastifyTRPCPlugin, { prefix: '/trpc', trpcOptions })
    registerGalleryRoutes(owner, deps, thumbnails)
  })

  // MCP for agents: its own scope, Bearer only (mcp/mcp.routes.ts).
  await app.register(async (mcp) => mcpRoutes(mcp, deps, auth))

  // Share links: their own scope, outside the owner's; the host guard above still applies.
  await app.register(async (shared) => shareRoutes(shared, deps, thumbnails))

  app.setNotFoundHandler(async (request, reply) => {
    if (!wantsHtml(request)) return reply.code(404).send({ error: 'not_found', message: 'No such route.' })
    if (request.url.startsWith('/s/')) return spa.sendIndex(reply)
    if (auth.acceptHandoff(request, reply)) return reply
    if (!auth.isOwner(request)) return auth.refuse(request, reply, unauthorizedPage)
    return spa.sendIndex(reply)
  })

  app.addHook('onClose', async () => {
    deps.heap.close()
    forgetPrunedImages()
    await deps.searchIndex.close()
    deps.opencode.db.close()
    deps.loupeDb.close()
  })
  return app
}
