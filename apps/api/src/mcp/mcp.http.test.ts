import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { request } from 'node:http'
import { describe, expect, it } from 'vitest'
import { createCaller, serveRealFixture, TEST_TOKEN } from '../../test/index.js'
import { toolAnswer } from '../../test/mcp-client.js'
import { search } from '../features/history/history.service.js'

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } }

/** node:http, because fetch will not send a Host header of its own choosing. */
const rawPost = (port: number, headers: Record<string, string>) => new Promise<number>((resolve, reject) => {
  const body = JSON.stringify(INIT)
  const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(Buffer.byteLength(body)), ...headers } }, (res) => {
    res.resume()
    resolve(res.statusCode ?? 0)
  })
  req.on('error', reject).end(body)
})

describe('MCP over Streamable HTTP at /mcp', () => {
  const served = serveRealFixture()
  const post = (headers: Record<string, string>, body: unknown = INIT) => served.server.fetch('/mcp', {
    method: 'POST', auth: false, body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  })

  it('serves the tools to an SDK client holding the owner token', async () => {
    const client = new Client({ name: 'loupe-test', version: '0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TEST_TOKEN}` } } }))
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(['session_read', 'session_search', 'storage_report'])
    const got = toolAnswer(await client.callTool({ name: 'session_search', arguments: { query: 'stdin', limit: 3 } }))
    const expected = search(served.deps, { query: 'stdin', limit: 3 })
    expect((got.data.hits as Array<{ messageID: string }>).map((h) => h.messageID)).toEqual(expected.hits.map((h) => h.messageID))
    const missing = toolAnswer(await client.callTool({ name: 'session_read', arguments: { sessionID: 'ses_nope' } }))
    expect(missing).toMatchObject({ isError: true, data: { error: 'not_found' } })
    await client.close()
  })

  it('refuses without the token (401), with a share token (403), by cookie alone, and from a foreign Host or Origin', async () => {
    expect((await post({})).status).toBe(401)
    expect((await post({ authorization: 'Bearer wrong-token-of-some-length' })).status).toBe(401)
    const session = search(served.deps, { query: 'stdin', limit: 1 }).hits[0]!.sessionID
    const share = await createCaller({ deps: served.deps }).shares.create({ sessionID: session, expiresIn: 600 })
    const shareToken = share.url.split('/s/')[1]!
    const refused = await post({ authorization: `Bearer ${shareToken}` })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ error: 'forbidden' })
    // The browser's cookie is for the web app; an agent brings the Bearer header.
    expect((await post({ cookie: `loupe_x=${TEST_TOKEN}` })).status).toBe(401)
    expect(await rawPost(served.server.port, { authorization: `Bearer ${TEST_TOKEN}`, host: 'evil.example' })).toBe(403)
    expect(await rawPost(served.server.port, { authorization: `Bearer ${TEST_TOKEN}`, host: `127.0.0.1:${served.server.port}`, origin: 'http://evil.example' })).toBe(403)
    const ok = await post({ authorization: `Bearer ${TEST_TOKEN}` })
    expect(ok.status).toBe(200)
    expect(await ok.json()).toMatchObject({ result: { serverInfo: { name: 'loupe' } } })
  })
})
