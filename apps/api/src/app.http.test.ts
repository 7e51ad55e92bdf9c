import { describe, expect, it } from 'vitest'
import { createTestDeps, realFixture, TEST_TOKEN } from '../test/harness.js'
import { buildApp } from './app.js'
import { serveRealFixture } from '../test/server.js'

describe('buildApp over loopback', () => {
  const served = serveRealFixture()

  it('says how long the server held each answer (Server-Timing), tRPC ones included', async () => {
    for (const [path, status] of [['/healthz', 200], ['/trpc/storage.info', 200], ['/trpc/sessions.drop', 404], ['/api/nothing', 404]] as const) {
      const res = await served.server.fetch(path)
      expect(res.status).toBe(status)
      const dur = /^app;dur=(\d+\.\d{3})$/.exec(res.headers.get('server-timing') ?? '')?.[1]
      expect(Number(dur), path).toBeGreaterThan(0)
    }
  })

  it('answers /healthz without a token', async () => {
    const res = await served.server.fetch('/healthz', { auth: false })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
  })

  it('refuses procedures without the token or with a wrong one', async () => {
    expect((await served.server.fetch('/trpc/storage.info', { auth: false })).status).toBe(401)
    expect((await served.server.fetch('/trpc/storage.info', { headers: { authorization: 'Bearer nope' } })).status).toBe(401)
    const ok = await served.server.fetch('/trpc/storage.info')
    expect(ok.status).toBe(200)
    const body = (await ok.json()) as { result: { data: { generations: unknown[] } } }
    expect(body.result.data.generations).toHaveLength(2)
  })

  it('serves plain JSON queries with input in the URL, so curl works', async () => {
    const input = encodeURIComponent(JSON.stringify({ limit: 1 }))
    const res = await served.server.fetch(`/trpc/sessions.list?input=${input}`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { result: { data: { sessions: Array<{ id: string }>; cursor: string | null } } }
    expect(body.result.data.sessions).toHaveLength(1)
    expect(typeof body.result.data.cursor).toBe('string')
  })

  it('trades the printed ?token= URL for an HttpOnly cookie and a redirect without the token', async () => {
    const res = await served.server.fetch(`/sessions?token=${TEST_TOKEN}&x=1`, { auth: false, redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/sessions?x=1')
    const cookie = res.headers.get('set-cookie')!
    expect(cookie).toMatch(/HttpOnly/)
    expect(cookie).toMatch(/SameSite=Strict/)
    const withCookie = await served.server.fetch('/trpc/storage.info', { auth: false, headers: { cookie: cookie.split(';')[0]! } })
    expect(withCookie.status).toBe(200)
    expect((await served.server.fetch('/sessions?token=wrong', { auth: false, redirect: 'manual' })).status).toBe(401)
  })

  it('refuses a foreign Host header or Origin (DNS rebinding)', async () => {
    const { request } = await import('node:http')
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: served.server.port, path: '/trpc/storage.info', headers: { authorization: `Bearer ${TEST_TOKEN}`, ...headers } }, (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        })
        req.on('error', reject)
        req.end()
      })
    expect(await status({ host: `evil.example:${served.server.port}` })).toBe(403)
    expect(await status({ host: `127.0.0.1:${served.server.port + 1}` })).toBe(403)
    expect(await status({ host: `localhost:${served.server.port}` })).toBe(200)
    expect(await status({ host: `127.0.0.1:${served.server.port}`, origin: 'http://evil.example' })).toBe(403)
    expect(await status({ host: `127.0.0.1:${served.server.port}`, origin: 'null' })).toBe(403)
    expect(await status({ host: `127.0.0.1:${served.server.port}`, origin: `http://localhost:${served.server.port}` })).toBe(200)
  })

  it('refuses request bodies over 1 MiB before parsing them', async () => {
    const body = JSON.stringify({ search: 'x'.repeat(1024 * 1024) })
    const res = await served.server.fetch('/trpc/sessions.list', { method: 'POST', body, headers: { 'content-type': 'application/json' } })
    expect(res.status).toBe(413)
  })

  it('answers bad input with a typed 400 and no stack trace', async () => {
    const input = encodeURIComponent(JSON.stringify({ limit: 'ten', extra: 1 }))
    const res = await served.server.fetch(`/trpc/sessions.list?input=${input}`)
    expect(res.status).toBe(400)
    const text = await res.text()
    expect(text).not.toMatch(/stack|at .*\.ts:\d+/)
    const body = JSON.parse(text) as { error: { data: { code: string; issues: unknown } } }
    expect(body.error.data.code).toBe('BAD_REQUEST')
    expect(body.error.data.issues).not.toBeNull()
  })

  it('answers unknown procedures, routes and files with 404, never the SPA shell', async () => {
    expect((await served.server.fetch('/trpc/sessions.drop')).status).toBe(404)
    expect((await served.server.fetch('/api/nothing')).status).toBe(404)
    expect((await served.server.fetch('/assets/index-missing.js')).status).toBe(404)
  })

  it('shows an explanation page instead of the app when the browser has no token', async () => {
    const res = await served.server.fetch('/sessions', { auth: false })
    expect(res.status).toBe(401)
    expect(await res.text()).toMatch(/npm start/)
  })
})

describe('buildApp: the heap collection after request work', () => {
  const collectorFor = async (requestWorkMs?: number) => {
    const deps = await createTestDeps((await realFixture()).db)
    let asked = 0
    const app = await buildApp({ ...deps, heap: { afterJob: () => asked++, close: () => {} } }, { requestWorkMs })
    return { app, asked: () => asked, done: async () => (await app.close(), deps.cleanup()) }
  }

  it('counts every answer, errors included, towards the collection (a threshold of 0: each asks)', async () => {
    const server = await collectorFor(0)
    try {
      expect((await server.app.inject('/healthz')).statusCode).toBe(200)
      expect((await server.app.inject('/api/nothing')).statusCode).toBe(404)
      expect(server.asked()).toBe(2)
    } finally {
      await server.done()
    }
  })

  it('asks for none after a few quick requests at the default threshold', async () => {
    const server = await collectorFor()
    try {
      for (let i = 0; i < 5; i++) expect((await server.app.inject('/healthz')).statusCode).toBe(200)
      expect(server.asked()).toBe(0)
    } finally {
      await server.done()
    }
  })
})
