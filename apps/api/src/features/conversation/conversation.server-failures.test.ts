import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { createOpenCodeClient } from '../../opencode/opencode-client.js'

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void
interface Seen {
  method: string
  url: URL
  authorization: string | undefined
  body: string
}

/**
 * A program on a loopback port that is not OpenCode, or an OpenCode that misbehaves: it answers the
 * identity check (`GET /session/:id`) like OpenCode, and `POST /session` as each test says.
 */
describe('the Images conversation against servers that answer badly', () => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  let server: http.Server
  let url: string
  let onCreate: Handler
  let seen: Seen[]
  let directory: string
  let knownID: string
  const sessionCount = () => (deps.opencode.db.raw.prepare('SELECT count(*) AS n FROM session').get() as { n: number }).n
  const sessionJson = (over: Record<string, unknown> = {}) => ({
    id: 'ses_fakefakefakefakefakefake01', slug: 's', projectID: 'p', directory, title: 'Images', version: '1.18.33',
    time: { created: 1, updated: 1 }, metadata: { 'codenomad.companion': 'images' }, ...over,
  })
  const json = (res: http.ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(typeof value === 'string' ? value : JSON.stringify(value))
  }

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
    const row = deps.opencode.db.raw.prepare('SELECT id, directory FROM session WHERE parent_id IS NULL ORDER BY time_created DESC, id DESC LIMIT 1').get() as { id: string; directory: string }
    ;({ id: knownID, directory } = row)
    server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        const target = new URL(req.url ?? '/', 'http://x')
        seen.push({ method: req.method ?? '', url: target, authorization: req.headers.authorization, body })
        if (req.method === 'GET' && target.pathname === `/session/${knownID}`) return json(res, 200, sessionJson({ id: knownID }))
        if (req.method === 'POST' && target.pathname === '/session') return onCreate(req, body, res)
        json(res, 404, { name: 'NotFoundError' })
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
    deps.cleanup()
  })
  beforeEach(() => {
    seen = []
    deps.opencodeClient = createOpenCodeClient({ url, username: null, password: null, timeouts: { workMs: 2_000 } })
  })

  it('sends OpenCode what it documents: POST /session?directory= with the title and the marker, HTTP Basic when a password is set', async () => {
    deps.opencodeClient = createOpenCodeClient({ url, username: 'alice', password: 'pw', timeouts: { workMs: 2_000 } })
    onCreate = (_req, _body, res) => json(res, 200, sessionJson({ id: knownID }))
    await caller.conversation.images({ directory, mode: 'new', title: 'Images' })
    const post = seen.find((s) => s.method === 'POST')!
    expect(post.url.pathname).toBe('/session')
    expect(post.url.searchParams.get('directory')).toBe(directory)
    expect(JSON.parse(post.body)).toEqual({ title: 'Images', metadata: { 'codenomad.companion': 'images' } })
    expect(post.authorization).toBe(`Basic ${Buffer.from('alice:pw').toString('base64')}`)
  })

  it.each<[string, Handler, string]>([
    ['an answer that is not JSON', (_q, _b, res) => json(res, 200, '<html>hello</html>'), 'not JSON'],
    ['JSON that is not a session', (_q, _b, res) => json(res, 200, { id: 'ses_x' }), 'not a session'],
    ['a session without the marker', (_q, _b, res) => json(res, 200, { ...sessionJson(), metadata: {} }), 'without the Images marker'],
    ['a child session', (_q, _b, res) => json(res, 200, { ...sessionJson(), parentID: 'ses_parent' }), 'without the Images marker'],
    ['a session in another directory', (_q, _b, res) => json(res, 200, { ...sessionJson(), directory: '/elsewhere' }), 'not in'],
    ['a session the database does not hold', (_q, _b, res) => json(res, 200, sessionJson()), 'not in the database Loupe opened'],
    ['HTTP 500', (_q, _b, res) => json(res, 500, { name: 'UnknownError' }), 'HTTP 500'],
    ['HTTP 401', (_q, _b, res) => json(res, 401, ''), 'credentials'],
    ['a redirect', (_q, _b, res) => (res.writeHead(302, { location: `${url}/session` }), res.end()), 'sent a redirect'],
    ['a session the database holds without the marker', (_q, _b, res) => json(res, 200, sessionJson({ id: knownID })), 'without the Images marker'],
    ['an answer over 4 MiB', (_q, _b, res) => json(res, 200, JSON.stringify({ ...sessionJson(), title: 'x'.repeat(5 * 1024 * 1024) })), 'over 4 MiB'],
    ['no answer in time', () => {}, 'did not answer within'],
    ['headers, then a body that stalls', (_q, _b, res) => (res.writeHead(200, { 'content-type': 'application/json' }), res.write('{"id":')), 'did not answer within'],
  ])('%s is blocked: unavailable, and nothing is written', async (_name, handler, reason) => {
    onCreate = handler
    const before = sessionCount()
    const answer = await caller.conversation.images({ directory, mode: 'open' })
    expect(answer).toMatchObject({ status: 'blocked', blocked: 'unavailable', reason: expect.stringContaining(reason), hint: expect.any(String) })
    expect(sessionCount()).toBe(before)
  })

  it('refuses to create when the server does not know this database\'s sessions', async () => {
    onCreate = (_q, _b, res) => json(res, 200, sessionJson())
    const other = deps.opencode.db.raw.prepare('SELECT directory FROM session WHERE directory != ? LIMIT 1').get(directory) as { directory: string }
    const answer = await caller.conversation.images({ directory: other.directory, mode: 'new' })
    expect(answer).toMatchObject({ status: 'blocked', reason: expect.stringContaining('another database') })
    expect(seen.some((s) => s.method === 'POST')).toBe(false)
  })

  it('reports a closed port as no server', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    deps.opencodeClient = createOpenCodeClient({ url: `http://127.0.0.1:${port}`, username: null, password: null })
    expect(await caller.conversation.images({ directory, mode: 'new' })).toMatchObject({ status: 'blocked', reason: expect.stringContaining('No OpenCode server answered') })
  })
})
