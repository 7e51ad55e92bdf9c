import { callTRPCProcedure, getTRPCErrorFromUnknown, getTRPCErrorShape, transformTRPCResponse, type AnyTRPCRouter } from '@trpc/server'
import { fastifyRequestHandler } from '@trpc/server/adapters/fastify'
import { getHTTPStatusCodeFromError } from '@trpc/server/http'
import type { TRPCError } from '@trpc/server'
import type { FastifyInstance } from 'fastify'

export interface TrpcRouteOptions<TContext> {
  prefix: string
  router: AnyTRPCRouter
  createContext(): TContext
  onError?(opts: { error: TRPCError; path: string | undefined }): void
  /** Off, every request goes through tRPC's own handler (the tests compare the two answers). */
  shortcut?: boolean
}

/** What `oneQuery` reads of a request (a FastifyRequest has it). */
export interface ShortcutRequest {
  method: string
  headers: Record<string, unknown>
  params: { path: string }
  query: Record<string, unknown>
}

/** A GET of one query, as the shortcut takes it: its path and its input. */
export interface OneQuery {
  path: string
  input: unknown
  batch: boolean
}

/**
 * The one request the shortcut answers: a GET of a single query, alone or as a batch of one (the
 * web client's httpBatchLink), with input that parses. Anything else, or anything odd, is left to
 * tRPC, which answers it (errors included) as it always has.
 */
export function oneQuery(router: AnyTRPCRouter, request: ShortcutRequest): OneQuery | null {
  if (request.method !== 'GET' || request.headers['trpc-accept'] !== undefined) return null
  const { path } = request.params
  const { input: raw, batch: batchParam, ...rest } = request.query
  const batch = batchParam === '1'
  if ((batchParam !== undefined && !batch) || Object.keys(rest).length > 0 || (raw !== undefined && typeof raw !== 'string')) return null
  const procedure = (router._def.procedures as Record<string, { _def: { type: string } } | undefined>)[path]
  if (procedure?._def.type !== 'query') return null
  if (raw === undefined || raw === '') return { path, input: undefined, batch }
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return null
  }
  if (batch && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))) return null
  const one = batch ? (parsed as Record<string, unknown>)['0'] : parsed
  return { path, input: one === undefined ? undefined : router._def._config.transformer.input.deserialize(one), batch }
}

/**
 * tRPC on `prefix/:path`, as its Fastify plugin mounts it, with a shortcut for the request a search
 * makes on every keystroke: one query by GET is called straight away and answered with the same
 * JSON, status and headers tRPC's handler gives it. The handler wraps every request in a fetch
 * Request and every answer in a fetch Response; skipping that made a rare word's round trip
 * 0.97–1.26 ms → 0.76–0.83 ms in-process on the 2-core VM (about as long as the search itself).
 * Only the functions tRPC exports for adapters are used.
 */
export async function registerTrpcRoute<TContext extends object>(scope: FastifyInstance, options: TrpcRouteOptions<TContext>): Promise<void> {
  const { router } = options
  const config = router._def._config
  // As tRPC's own plugin: bodies reach its handler as they came.
  scope.removeContentTypeParser('application/json')
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body))
  scope.removeContentTypeParser('multipart/form-data')
  scope.addContentTypeParser('multipart/form-data', {}, (_request, body, done) => done(null, body))

  scope.all<{ Params: { path: string }; Querystring: Record<string, unknown> }>(`${options.prefix}/:path`, async (request, reply) => {
    const call = options.shortcut === false ? null : oneQuery(router, request)
    if (!call) {
      await fastifyRequestHandler({
        router,
        req: request,
        res: reply,
        path: request.params.path,
        createContext: () => options.createContext(),
        onError: ({ error, path }) => options.onError?.({ error, path }),
      })
      return reply
    }
    const { path, input } = call
    const ctx = options.createContext()
    let body: object
    let status = 200
    try {
      const data: unknown = await callTRPCProcedure({ router, path, getRawInput: async () => input, ctx, type: 'query', signal: undefined, batchIndex: 0 })
      body = { result: { data } }
    } catch (cause) {
      const error = getTRPCErrorFromUnknown(cause)
      options.onError?.({ error, path })
      status = getHTTPStatusCodeFromError(error)
      body = { error: getTRPCErrorShape({ config, error, type: 'query', path, input, ctx }) }
    }
    const json = JSON.stringify(transformTRPCResponse(config, (call.batch ? [body] : body) as never))
    return reply.code(status).header('vary', 'trpc-accept, accept').header('content-type', 'application/json').send(Buffer.from(json))
  })
}
