// Foundation: how fast the session list, a session and its transcript open on a ≥ 300k-part
// database with a 10,000-message session. Real server on loopback, plain-JSON tRPC over HTTP.
import fs from 'node:fs'
import os from 'node:os'
import { createTestDeps, startTestServer, TEST_TOKEN } from '@loupe/api/testing'
import { ensureBenchDb, fmt, measure, trpcQuery } from './bench-db.js'

const bench = ensureBenchDb()
const deps = await createTestDeps(bench.file)
const server = await startTestServer(deps)
const call = trpcQuery(server.url, TEST_TOKEN)

const size = fs.statSync(bench.file).size
console.log(`database: ${(size / 1e6).toFixed(0)} MB, ${bench.sessions} sessions, ${bench.messages} messages, ${bench.parts} parts (${os.cpus().length} cores)`)
// The first list after opening computes every session's totals (session-totals.ts); later ones reuse them.
const cold = performance.now()
const first = await call('sessions.list', { limit: 50 })
console.log(`sessions.list, first call after opening (computes every session's totals): ${(performance.now() - cold).toFixed(0)} ms`)
const sorted = await call('sessions.list', { limit: 50, sort: 'size', order: 'desc' })
const long = bench.longSessionID
const latest = await call('sessions.messages', { sessionID: long, storage: 'v1' })
const middle = (await call('sessions.messages', { sessionID: long, storage: 'v1', anchor: 'earliest', limit: 1 }))
const cases: Array<[string, () => Promise<unknown>]> = [
  ['storage.info', () => call('storage.info')],
  ['sessions.list (first page of 50)', () => call('sessions.list', { limit: 50 })],
  ['sessions.list (page 2)', () => call('sessions.list', { limit: 50, cursor: first.cursor })],
  ['sessions.list (title filter "auth")', () => call('sessions.list', { limit: 50, search: 'auth' })],
  ...(['size', 'eventBytes', 'tokens', 'cost', 'messages'] as const).flatMap((sort) => (['desc', 'asc'] as const).map(
    (order): [string, () => Promise<unknown>] => [`sessions.list sort=${sort} ${order}`, () => call('sessions.list', { limit: 50, sort, order })],
  )),
  ['sessions.list sort=size desc, page 2', () => call('sessions.list', { limit: 50, sort: 'size', order: 'desc', cursor: sorted.cursor })],
  ['sessions.projects', () => call('sessions.projects')],
  ['sessions.get (10,000-message session)', () => call('sessions.get', { sessionID: long, storage: 'v1' })],
  ['sessions.messages latest page (10k session)', () => call('sessions.messages', { sessionID: long, storage: 'v1' })],
  ['sessions.messages older page (10k session)', () => call('sessions.messages', { sessionID: long, storage: 'v1', cursor: latest.older })],
  ['sessions.messages around first message', () => call('sessions.messages', { sessionID: long, storage: 'v1', around: middle.messages[0].id })],
  ['sessions.breakdown (10k session, 31k parts, 25 MB)', () => call('sessions.breakdown', { sessionID: long, storage: 'v1' })],
  ['sessions.breakdown (a typical demo session)', () => call('sessions.breakdown', { sessionID: first.sessions[1].id, storage: 'v1' })],
]
console.log(`${'procedure'.padEnd(46)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'max ms'.padStart(8)}`)
for (const [name, fn] of cases) {
  const r = await measure(fn, 30)
  console.log(`${name.padEnd(46)}${fmt(r.p50)}${fmt(r.p95)}${fmt(r.max)}`)
}
const page = await call('sessions.messages', { sessionID: long, storage: 'v1' })
console.log(`latest page: ${page.messages.length} messages, ${JSON.stringify(page).length} bytes of JSON`)
console.log(`rss: ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`)
await server.close()
deps.cleanup()

