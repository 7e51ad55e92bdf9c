import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../deps.js'
import type { OwnerAuth } from '../http/auth.js'
import { lookupShare } from '../share/shares.service.js'

/** The MCP SDK and the tools, loaded by the first call (most servers never get one), once. */
const loadMcp = async () => {
  const [{ StreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('./mcp-server.js'),
  ])
  return { StreamableHTTPServerTransport, createMcpServer }
}

/**
 * `/mcp`: the MCP tools over Streamable HTTP, for OpenCode's `remote` entry. Only the owner's token
 * as a Bearer header opens it (no cookie: a page in the owner's browser must not reach it); a share
 * link's token is known and refused (403); the host guard before every route applies here too.
 * Stateless: each request gets its own server and transport, so nothing is kept between calls.
 */
export async function mcpRoutes(app: FastifyInstance, deps: AppDeps, auth: OwnerAuth) {
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization
    const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : null
    if (bearer !== null && auth.isOwner(request)) return
    const share = bearer === null ? null : lookupShare(deps, bearer)
    if (share && (share.ok || share.status !== 404)) {
      return reply.code(403).send({ error: 'forbidden', message: 'A share link does not open Loupe\'s MCP tools; use the owner\'s token.' })
    }
    return auth.refuse(request, reply)
  })
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const { StreamableHTTPServerTransport, createMcpServer } = await loadMcp()
    const server = createMcpServer(deps)
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    reply.hijack()
    reply.raw.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(request.raw, reply.raw, request.body)
  }
  app.post('/mcp', handle)
  app.get('/mcp', handle)
  app.delete('/mcp', handle)
}
