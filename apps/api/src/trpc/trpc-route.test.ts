import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDeps, realFixture, type TestDeps } from '../../test/harness.js'
import { appRouter } from './app-router.js'
import { createContextFactory } from './context.js'
import { oneQuery, registerTrpcRoute } from './trpc-route.js'

const get = (path: string, query: Record<string, unknown> = {}, headers: Record<string, unknown> = {}) => ({ method: 'GET', headers, params: { path }, query })
const q = (input: unknown) => encodeURIComponent(JSON.stringify(input))
// A search cursor names the ranked snapshot it pages (a random id), new in every answer.
const withoutCursors = (body: string) => body.replace(/"cursor":"[^"]+"/g, '"cursor":"…"')

describe('oneQuery: the requests the shortcut takes', () => {
  it('takes a GET of one query, alone or as a batch of one, with input that parses', () => {
    expect(oneQuery(appRouter, get('storage.info'))).toEqual({ path: 'storage.info', input: undefined, batch: false })
    expect(oneQuery(appRouter, get('history.search', { input: '{"query":"x"}' }))).toEqual({ path: 'history.search', input: { query: 'x' }, batch: false })
    expect(oneQuery(appRouter, get('history.search', { batch: '1', input: '{"0":{"query":"x"}}' }))).toEqual({ path: 'history.search', input: { query: 'x' }, batch: true })
    expect(oneQuery(appRouter, get('storage.info', { batch: '1', input: '{}' }))).toEqual({ path: 'storage.info', input: undefined, batch: true })
  })

  it('leaves everything else to tRPC', () => {
    expect(oneQuery(appRouter, { ...get('storage.info'), method: 'POST' })).toBeNull()
    expect(oneQuery(appRouter, get('pruning.prune', { input: '{}' }))).toBeNull()
    expect(oneQuery(appRouter, get('history.progress'))).toBeNull()
    expect(oneQuery(appRouter, get('nothing.here'))).toBeNull()
    expect(oneQuery(appRouter, get('storage.info,sessions.list', { batch: '1', input: '{}' }))).toBeNull()
    expect(oneQuery(appRouter, get('history.search', { input: '{"query":' }))).toBeNull()
    expect(oneQuery(appRouter, get('history.search', { batch: '1', input: '[{"query":"x"}]' }))).toBeNull()
    expect(oneQuery(appRouter, get('history.search', { batch: '2', input: '{}' }))).toBeNull()
    expect(oneQuery(appRouter, get('history.search', { input: ['{}', '{}'] }))).toBeNull()
    expect(oneQuery(appRouter, get('history.search', { input: '{}', other: '1' }))).toBeNull()
    expect(oneQuery(appRouter, get('storage.info', {}, { 'trpc-accept': 'application/jsonl' }))).toBeNull()
  })
})

describe('the shortcut answers as tRPC does', () => {
  let deps: TestDeps
  let app: FastifyInstance
  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    deps.searchIndex.runUntilIdle()
    app = Fastify()
    const options = { router: appRouter, createContext: createContextFactory(deps) }
    await app.register(async (scope) => registerTrpcRoute(scope, { ...options, prefix: '/trpc' }))
    await app.register(async (scope) => registerTrpcRoute(scope, { ...options, prefix: '/plain', shortcut: false }))
  })
  afterAll(async () => {
    await app.close()
    deps.cleanup()
  })

  it('with the same status, headers and body for answers and errors alike', async () => {
    const first = await app.inject(`/plain/history.search?input=${q({ query: 'stdin', limit: 1 })}`)
    const cursor = (first.json() as { result: { data: { cursor: string } } }).result.data.cursor
    expect(cursor).toBeTruthy()
    const requests = [
      'storage.info',
      `sessions.list?input=${q({ limit: 2 })}`,
      `history.search?input=${q({ query: 'stdin', limit: 3 })}`,
      `history.search?batch=1&input=${q({ 0: { query: '"exact phrase" -x pr*', limit: 3 } })}`,
      `history.search?input=${q({ query: 'stdin', limit: 1, cursor })}`,
      // Errors: bad input (400), a cursor of another query (409), an unknown session (404).
      `history.search?input=${q({})}`,
      `history.search?batch=1&input=${q({ 0: { limit: 1 } })}`,
      `history.search?input=${q({ query: 'other', cursor })}`,
      `history.search?input=${q({ query: 'stdin', sessionID: 'ses_unknown' })}`,
      `history.search?input=${q({ query: 'stdin', cursor: 'not-a-cursor!' })}`,
      `history.search?input=5`,
      // What the shortcut leaves to tRPC comes out the same way too.
      'nothing.here',
      `pruning.prune?input=${q({})}`,
      `storage.info,sessions.list?batch=1&input=${q({ 1: { limit: 1 } })}`,
      `history.search?input=%7B`,
    ]
    for (const path of requests) {
      const [ours, theirs] = await Promise.all([app.inject(`/trpc/${path}`), app.inject(`/plain/${path}`)])
      expect(ours.statusCode, path).toBe(theirs.statusCode)
      expect(ours.headers['content-type'], path).toBe(theirs.headers['content-type'])
      expect(ours.headers.vary, path).toBe(theirs.headers.vary)
      expect(withoutCursors(ours.body), path).toBe(withoutCursors(theirs.body))
    }
    const statuses = await Promise.all(requests.map(async (path) => (await app.inject(`/trpc/${path}`)).statusCode))
    expect(statuses).toEqual([200, 200, 200, 200, 200, 400, 400, 409, 404, 400, 400, 404, 405, 200, 400])
  })
})
