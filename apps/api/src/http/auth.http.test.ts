import fs from 'node:fs'
import { request } from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDeps, realFixture, tempDir, TEST_NOW, TEST_TOKEN, type TestDeps } from '../../test/harness.js'
import { startTestServer, type TestServer } from '../../test/server.js'

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
}

/** One request with the path sent exactly as given (fetch would normalise `/./` and `//`). */
const send = (port: number, pathName: string, headers: Record<string, string> = {}, localAddress = '127.0.0.1') =>
  new Promise<Answer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathName, headers, localAddress, agent: false }, (res) => {
      res.resume()
      resolve({ status: res.statusCode ?? 0, headers: res.headers })
    })
    req.on('error', reject).end()
  })

describe('owner token over loopback', () => {
  let deps: TestDeps
  let server: TestServer
  let now = TEST_NOW

  beforeAll(async () => {
    const webRoot = tempDir()
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>Loupe</title>')
    deps = await createTestDeps((await realFixture()).db, { webRoot })
    deps.clock = { now: () => now }
    server = await startTestServer(deps)
  })
  afterAll(async () => {
    await server?.close()
    deps?.cleanup()
    fs.rmSync(deps.config.webRoot ?? '', { recursive: true, force: true })
  })

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

  it('answers 429 after 20 wrong tokens a minute from one address, and never counts or refuses the valid one', async () => {
    const port = server.port
    const wrong = [
      () => send(port, '/trpc/storage.info', bearer('wrong-token')),
      () => send(port, '/trpc/storage.info', { cookie: 'loupe_x=wrong' }),
      () => send(port, '/trpc/storage.info'),
      () => send(port, '/sessions?token=wrong'),
    ]
    const statuses: number[] = []
    for (let i = 0; i < 19; i++) statuses.push((await wrong[i % wrong.length]!()).status)
    // Valid requests in between take none of the address's 20 failures.
    for (let i = 0; i < 5; i++) expect((await send(port, '/trpc/storage.info', bearer(TEST_TOKEN))).status).toBe(200)
    statuses.push((await wrong[0]!()).status)
    expect(statuses).toEqual(Array(20).fill(401))

    const limited = await send(port, '/trpc/storage.info', bearer('wrong-token'))
    expect(limited.status).toBe(429)
    expect(limited.headers['retry-after']).toBe('60')
    expect((await send(port, '/sessions?token=wrong')).status).toBe(429)
    expect((await send(port, '/sessions')).status).toBe(429)

    // The owner, from that very address, meanwhile: Bearer, the hand-off and its cookie.
    expect((await send(port, '/trpc/storage.info', bearer(TEST_TOKEN))).status).toBe(200)
    const handoff = await send(port, `/sessions?token=${TEST_TOKEN}`)
    expect(handoff.status).toBe(302)
    const cookie = String(handoff.headers['set-cookie']).split(';')[0]!
    expect((await send(port, '/trpc/storage.info', { cookie })).status).toBe(200)
    expect((await send(port, '/sessions', { cookie })).status).toBe(200)

    // Another address has its own count; a minute later this one starts again.
    expect((await send(port, '/trpc/storage.info', bearer('wrong-token'), '127.0.0.2')).status).toBe(401)
    now += 60_000
    expect((await send(port, '/trpc/storage.info', bearer('wrong-token'))).status).toBe(401)
  })

  it('redirects the ?token= hand-off only to a path on this origin', async () => {
    const cases: Array<[string, string]> = [
      [`/.//evil.com/x?token=${TEST_TOKEN}`, '/evil.com/x'],
      [`//evil.com/x?token=${TEST_TOKEN}&y=1`, '/evil.com/x?y=1'],
      [`/\\evil.com/?token=${TEST_TOKEN}`, '/evil.com/'],
      [`/./\\/evil.com/x?token=${TEST_TOKEN}`, '/evil.com/x'],
      [`/search?q=a&token=${TEST_TOKEN}`, '/search?q=a'],
    ]
    for (const [sent, expected] of cases) {
      const answer = await send(server.port, sent)
      expect(answer.status, sent).toBe(302)
      expect(answer.headers.location, sent).toBe(expected)
      expect(new URL(String(answer.headers.location), server.url).origin).toBe(new URL(server.url).origin)
    }
  })

  it('serves every page of the app with Referrer-Policy: no-referrer', async () => {
    const page = await server.fetch('/sessions')
    expect(page.status).toBe(200)
    expect(page.headers.get('referrer-policy')).toBe('no-referrer')
  })
})
