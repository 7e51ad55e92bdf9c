import { encodeBase64Url } from '@loupe/domain'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { hostileString } from '../../../test/hostile/arbitraries.js'
import { createCaller } from '../../../test/harness.js'
import { serveRealFixture } from '../../../test/server.js'

/** Targets that decode to almost-valid tuples: real ids, wrong numbers, foreign digests. */
const targetArb = (messageIDs: string[]) =>
  fc.oneof(
    hostileString.map((s) => encodeURIComponent(s).slice(0, 1500) || 'x'),
    fc
      .tuple(
        fc.constantFrom('r', 'p', 'g', 'x'),
        fc.oneof(fc.constantFrom(...messageIDs), hostileString),
        fc.oneof(fc.integer({ min: -2, max: 8 }), fc.double(), fc.constant(null)),
        fc.oneof(fc.integer({ min: -2, max: 8 }), fc.string()),
        fc.oneof(fc.constantFrom('a'.repeat(64), '0'.repeat(64)), fc.string({ maxLength: 70 })),
      )
      .map((tuple) => encodeBase64Url(JSON.stringify(tuple))),
  )
const queryArb = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?size=256', '?size=1024', '?size=0', '?size=-1', '?size=1e9', '?download=1', '?download=0', '?storage=v3', '?size=256&size=1024', '?__proto__=1'),
  hostileString.map((s) => `?size=${encodeURIComponent(s).slice(0, 500)}`),
)

describe('image and share routes under hostile requests', () => {
  const served = serveRealFixture()
  let sessionID: string
  let token: string
  let messageIDs: string[]

  beforeAll(async () => {
    const { deps } = served
    const caller = createCaller({ deps })
    sessionID = (deps.opencode.db.raw.prepare(`SELECT id FROM session WHERE title = 'Screenshot vs architecture diagram'`).get() as { id: string }).id
    messageIDs = (deps.opencode.db.raw.prepare(`SELECT id FROM message WHERE session_id = ?`).all(sessionID) as { id: string }[]).map((r) => r.id)
    token = (await caller.shares.create({ sessionID, expiresIn: 600 })).url.split('/s/')[1]!
  })

  it('never answers 5xx and never serves bytes for a forged target', async () => {
    await fc.assert(
      fc.asyncProperty(targetArb(['msg_x']), queryArb, fc.boolean(), async (target, query, shared) => {
        const path = shared ? `/api/shared/${token}/images/${target}${query}` : `/api/sessions/${sessionID}/images/${target}${query}`
        const res = await served.server.fetch(path, { auth: !shared })
        await res.arrayBuffer()
        expect(res.status, path.slice(0, 200)).toBeLessThan(500)
        expect(res.status).not.toBe(200)
      }),
      { numRuns: 250 },
    )
  })

  it('never answers 5xx for forged targets that name real messages', async () => {
    await fc.assert(
      fc.asyncProperty(targetArb(messageIDs), queryArb, async (target, query) => {
        const res = await served.server.fetch(`/api/sessions/${sessionID}/images/${target}${query}`)
        await res.arrayBuffer()
        expect(res.status).toBeLessThan(500)
        expect(res.status).not.toBe(200)
      }),
      { numRuns: 250 },
    )
  })

  it('never answers 5xx for hostile tokens and cursors on the share door', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constant(token), hostileString.map((s) => encodeURIComponent(s).slice(0, 300) || 'x')), hostileString, async (t, cursor) => {
        const res = await served.server.fetch(`/api/shared/${t}/images?cursor=${encodeURIComponent(cursor).slice(0, 5000)}`, { auth: false, headers: { 'x-forwarded-for': '1.2.3.4' } })
        await res.arrayBuffer()
        expect(res.status).toBeLessThan(500)
      }),
      { numRuns: 150 },
    )
  })
})
