import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { startTestServer, type TestServer } from '../../../test/server.js'
import { diffSnapshots, snapshotDb } from '../../../test/fixtures/pruning/db-snapshot.js'
import { fixtureIds } from '../../../test/fixtures/pruning/fixture-ids.js'

// Shapes only: inputs are refused before any session is looked up (the stale ones answer `conflict`).
let SESSION = 'ses_'
let MESSAGE = 'msg_'
const REV = 'a'.repeat(64)
let ok = { sessionID: SESSION, messageID: MESSAGE, revision: REV, indexes: [1] }

describe('pruning inputs fail closed', () => {
  let deps: TestDeps
  let server: TestServer
  let caller: ReturnType<typeof createCaller>

  beforeAll(async () => {
    const real = await realFixture()
    ;({ tour: SESSION, tourMessage: MESSAGE } = fixtureIds(real.dir))
    ok = { sessionID: SESSION, messageID: MESSAGE, revision: REV, indexes: [1] }
    deps = await createTestDeps(real.db)
    server = await startTestServer(deps)
    caller = createCaller({ deps })
  })
  afterAll(async () => {
    await server.close()
    deps.cleanup()
  })

  it.each<[string, unknown]>([
    ['replacement content', { ...ok, content: [] }],
    ['SQL', { ...ok, sql: 'DELETE FROM part' }],
    ['a database path', { ...ok, databasePath: '/tmp/x.db' }],
    ['no indexes', { ...ok, indexes: [] }],
    ['a repeated index', { ...ok, indexes: [1, 1] }],
    ['a negative index', { ...ok, indexes: [-1] }],
    ['an index over 100,000', { ...ok, indexes: [100_001] }],
    ['a fractional index', { ...ok, indexes: [1.5] }],
    ['100,002 indexes', { ...ok, indexes: Array.from({ length: 100_002 }, (_, i) => i) }],
    ['an uppercase revision', { ...ok, revision: 'A'.repeat(64) }],
    ['a short revision', { ...ok, revision: 'a'.repeat(63) }],
    ['an unknown storage', { ...ok, storage: 'v3' }],
    ['a session id with path syntax', { ...ok, sessionID: '../../etc/passwd' }],
    ['a 257-character message id', { ...ok, messageID: 'm'.repeat(257) }],
  ])('prune rejects %s as BAD_REQUEST', async (_name, input) => {
    await expect(caller.pruning.prune(input as never)).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })

  it.each<[string, unknown]>([
    ['no candidates', { sessionID: SESSION, candidates: [] }],
    ['17 candidates', { sessionID: SESSION, candidates: Array.from({ length: 17 }, (_, i) => ({ messageID: `msg_${i}`, revision: REV })) }],
    ['the same message twice', { sessionID: SESSION, candidates: [{ messageID: MESSAGE, revision: REV }, { messageID: MESSAGE, revision: REV }] }],
    ['indexes on a candidate', { sessionID: SESSION, candidates: [{ messageID: MESSAGE, revision: REV, indexes: [1] }] }],
  ])('pruneBatch rejects %s as BAD_REQUEST', async (_name, input) => {
    await expect(caller.pruning.pruneBatch(input as never)).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('accepts 100,001 indexes (the limit) and answers with a typed refusal', async () => {
    const indexes = Array.from({ length: 100_001 }, (_, i) => i)
    expect(await caller.pruning.prune({ ...ok, indexes })).toMatchObject({ status: 'blocked', reason: 'conflict' })
  })

  it('refuses a request body over 1 MiB over HTTP, and changes nothing', async () => {
    const before = snapshotDb(deps.opencode.path)
    const body = JSON.stringify({ ...ok, pad: 'x'.repeat(1024 * 1024) })
    const res = await server.fetch('/trpc/pruning.prune', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    expect(res.status).toBe(413)
    const huge = await server.fetch('/trpc/pruning.prune', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...ok, indexes: Array.from({ length: 100_001 }, (_, i) => i), pad: 'y'.repeat(600_000) }),
    })
    expect(huge.status).toBe(413)
    expect(diffSnapshots(before, snapshotDb(deps.opencode.path))).toEqual({ changed: [], added: [], removed: [] })
  })

  it('answers a typed refusal over HTTP for a well-formed stale request', async () => {
    const res = await server.fetch('/trpc/pruning.prune', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ok) })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { result: { data: unknown } }).result.data).toMatchObject({ status: 'blocked', reason: 'conflict' })
  })
})
