import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { startTestServer, type TestServer } from '../../../test/server.js'
import { fixtureIds } from '../../../test/fixtures/pruning/fixture-ids.js'

let SESSION = ''

/** Follow `/trpc/events.pruned` as a browser tab does (tRPC's SSE), collecting `data:` payloads. */
function follow(server: TestServer) {
  const controller = new AbortController()
  const received: unknown[] = []
  let connected!: () => void
  const ready = new Promise<void>((r) => (connected = r))
  const done = (async () => {
    const res = await server.fetch('/trpc/events.pruned', { signal: controller.signal, headers: { accept: 'text/event-stream' } })
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const decoder = new TextDecoder()
    let buffer = ''
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          if (/^event: connected/m.test(block)) connected()
          const data = block.split('\n').find((l) => l.startsWith('data: '))
          if (data && !/^event: /m.test(block)) received.push(JSON.parse(data.slice(6)))
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error
    }
  })()
  return { received, ready, stop: async () => { controller.abort(); await done } }
}

describe('events.pruned over SSE', () => {
  let deps: TestDeps
  let server: TestServer
  beforeAll(async () => {
    const fixture = await realFixture()
    SESSION = fixtureIds(fixture.dir).tour
    deps = await createTestDeps(fixture.db)
    server = await startTestServer(deps)
  })
  afterAll(async () => {
    await server.close()
    deps.cleanup()
  })

  it('reaches every open tab after each commit, and again on an identical retry; the stream needs the owner token', async () => {
    const tabs = [follow(server), follow(server)]
    await Promise.all(tabs.map((t) => t.ready))
    const caller = createCaller({ deps })
    const plan = await caller.pruning.sessionPlan({ sessionID: SESSION })
    const [c] = plan.candidates
    const request = { sessionID: SESSION, candidates: [{ messageID: c!.messageID, revision: c!.revision }] }
    const first = await caller.pruning.pruneBatch(request)
    const again = await caller.pruning.pruneBatch(request)
    expect(again).toEqual(first)
    const receipt = first.results[0]!.result
    const expected = { sessionID: SESSION, messageID: c!.messageID, revision: receipt.status === 'pruned' ? receipt.revision : '', storage: 'v1' }
    for (const tab of tabs) {
      for (let i = 0; i < 50 && tab.received.length < 2; i++) await new Promise((r) => setTimeout(r, 20))
      expect(tab.received).toEqual([expected, expected])
    }
    await Promise.all(tabs.map((t) => t.stop()))
    const anonymous = await server.fetch('/trpc/events.pruned', { auth: false })
    expect(anonymous.status).toBe(401)
  })
})
