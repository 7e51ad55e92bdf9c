import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { appRouter } from '../../src/trpc/app-router.js'
import { serveRealFixture } from '../server.js'
import { hostileInput, hostileString } from './arbitraries.js'

// Subscriptions (events.*) answer with a stream that stays open by design; they are covered by their own tests.
const paths = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
  .filter(([, p]) => p._def.type !== 'subscription')
  .map(([path]) => path)

const requestArb = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
  path: fc.oneof(
    fc.constantFrom(...paths).map((p) => `/trpc/${p}`),
    fc.constantFrom('/trpc/', '/trpc/a,b,c', '/api/', '/api/sessions/x/images/y', '/s/abc', '/healthz', '/%2e%2e/%2e%2e/etc/passwd', '/index.html', '/mcp'),
    hostileString.map((s) => `/trpc/${encodeURIComponent(s).slice(0, 2000)}`),
  ),
  query: fc.oneof(
    fc.constant(''),
    hostileInput.map((v) => `?input=${encodeURIComponent(JSON.stringify(v) ?? 'undefined').slice(0, 6000)}`),
    hostileString.map((s) => `?input=${encodeURIComponent(s).slice(0, 6000)}&batch=1`),
  ),
  body: fc.oneof(fc.constant(undefined), hostileString, hostileInput.map((v) => JSON.stringify(v) ?? 'null')),
  contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'),
})

describe('HTTP routes under hostile requests', () => {
  const served = serveRealFixture()

  it('answers 2xx, 3xx or 4xx — never 5xx — for random methods, paths, inputs and bodies', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const withBody = r.method !== 'GET' && r.body !== undefined
        const res = await served.server.fetch(r.path + r.query, {
          method: r.method,
          ...(withBody ? { body: r.body, headers: { 'content-type': r.contentType } } : {}),
        })
        await res.arrayBuffer()
        expect(res.status, `${r.method} ${r.path}${r.query.slice(0, 80)}`).toBeLessThan(500)
      }),
      { numRuns: 300 },
    )
  })
})
