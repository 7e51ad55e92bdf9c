import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BLOAT_FIXTURE, ensureRealFixture } from '../../../../../tools/fixtures.mjs'
import { createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { createOpenCodeClient } from '../../opencode/opencode-client.js'
import { LIVE_VERDICT_MS } from '../../opencode/live-guard.js'
import { createLiveWindow } from './compact-live.js'
import { compactEventLog } from './compact.service.js'

/**
 * A stand-in for OpenCode's `GET /session/status` on loopback: idle for the first `idleCalls`
 * answers, then busy in every session it is asked about (as when a prompt starts mid-run).
 */
async function statusServer(idle: number) {
  let idleCalls = idle
  let calls = 0
  const asked = { calls: 0 }
  const watched = new Set<string>()
  const server = http.createServer((_req, res) => {
    calls++
    asked.calls = calls
    const busy = calls > idleCalls ? [...watched] : []
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(Object.fromEntries(busy.map((id) => [id, { type: 'busy' }]))))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    watch: (id: string) => watched.add(id),
    busyFromNow: () => {
      idleCalls = 0
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('compactEventLog while OpenCode starts working', () => {
  let deps: TestDeps | undefined
  let close: (() => Promise<void>) | undefined
  afterEach(async () => {
    deps?.cleanup()
    await close?.()
  })

  it('re-checks before every batch, stops with the reason when the session turns busy, and a later run finishes', async () => {
    const fixture = path.join(await ensureRealFixture(BLOAT_FIXTURE, { name: 'bloat' }), 'opencode.db')
    const status = await statusServer(4)
    close = status.close
    deps = await createTestDeps(fixture)
    deps.opencodeClient = createOpenCodeClient({ url: status.url, username: null, password: null })
    const [sessionID] = deps.opencode.db.pluckSql<string>(`SELECT id FROM session`)
    status.watch(sessionID!)
    const dry = await compactEventLog(deps, { dryRun: true })
    expect(dry.eventsRedacted).toBeGreaterThan(500)

    // 1 MiB batches: about twenty transactions for this session's log.
    const stopped = await compactEventLog(deps, { dryRun: false }, undefined, { batchBytes: 1024 * 1024 })
    expect(stopped.status).toBe('stopped')
    expect(stopped.detail).toMatch(/OpenCode is running this session right now/)
    expect(stopped.eventsRedacted).toBeGreaterThan(0)
    expect(stopped.eventsRedacted).toBeLessThan(dry.eventsRedacted)
    expect(stopped.eventBytesAfter).toBeLessThan(dry.eventBytesBefore)

    const idle = await statusServer(Number.MAX_SAFE_INTEGER)
    close = async () => {
      await status.close()
      await idle.close()
    }
    deps.opencodeClient = createOpenCodeClient({ url: idle.url, username: null, password: null })
    const rest = await compactEventLog(deps, { dryRun: false }, undefined, { batchBytes: 1024 * 1024 })
    expect(rest.status).toBe('done')
    expect(stopped.eventsRedacted + rest.eventsRedacted).toBe(dry.eventsRedacted)
    expect(rest.eventBytesAfter).toBe(dry.eventBytesAfter)
  })

  it('asks once for the sessions whose logs fit in one batch, and before every batch beyond', async () => {
    const fixture = (await realFixture()).db
    const status = await statusServer(Number.MAX_SAFE_INTEGER)
    close = status.close
    deps = await createTestDeps(fixture)
    deps.opencodeClient = createOpenCodeClient({ url: status.url, username: null, password: null })
    const sessions = deps.opencode.db.allSql<{ id: string; bytes: number }>(`SELECT aggregate_id AS id, sum(octet_length(data)) AS bytes FROM event GROUP BY aggregate_id`)
    expect(sessions.length).toBeGreaterThan(1)
    const total = sessions.reduce((n, s) => n + s.bytes, 0)
    // One look asks the server once for each directory of the sessions it covers.
    const dry = await compactEventLog(deps, { dryRun: true })
    const look = status.asked.calls
    expect(look).toBeGreaterThan(0)
    expect(look).toBeLessThan(sessions.length)
    // One batch holds every session's log: one look for the whole run.
    const whole = await compactEventLog(deps, { dryRun: false }, undefined, { batchBytes: total })
    expect(whole.eventsRedacted).toBe(dry.eventsRedacted)
    expect(status.asked.calls).toBe(2 * look)
    // Batches of one event each: a look before every one.
    deps.cleanup()
    deps = await createTestDeps(fixture)
    deps.opencodeClient = createOpenCodeClient({ url: status.url, username: null, password: null })
    const before = status.asked.calls
    const small = await compactEventLog(deps, { dryRun: false }, undefined, { batchBytes: 1 })
    expect(small.eventsRedacted).toBe(dry.eventsRedacted)
    expect(status.asked.calls - before).toBeGreaterThanOrEqual(dry.eventsRedacted)
  })

  it('asks again once a verdict is older than LIVE_VERDICT_MS, even with bytes left in its budget', async () => {
    const status = await statusServer(Number.MAX_SAFE_INTEGER)
    close = status.close
    deps = await createTestDeps(path.join(await ensureRealFixture(BLOAT_FIXTURE, { name: 'bloat' }), 'opencode.db'))
    deps.opencodeClient = createOpenCodeClient({ url: status.url, username: null, password: null })
    const d = deps
    const [sessionID] = d.opencode.db.pluckSql<string>(`SELECT id FROM session`)
    const owner = () => {
      for (const store of d.opencode.stores.all) {
        const session = store.getSession(d.opencode.db, sessionID!)
        if (session) return { store, session }
      }
      return undefined
    }
    const window = createLiveWindow(d, [{ sessionID: sessionID!, bytes: 1 }], 1024 * 1024, owner)
    expect(await window.refusal(0)).toBeUndefined()
    const first = status.asked.calls
    expect(first).toBeGreaterThan(0)
    window.spend(1)
    expect(await window.refusal(0, 1)).toBeUndefined()
    expect(status.asked.calls).toBe(first)
    // Planning a long log between the session's first look and its first batch takes time.
    await new Promise((resolve) => setTimeout(resolve, LIVE_VERDICT_MS + 100))
    status.watch(sessionID!)
    status.busyFromNow()
    expect(await window.refusal(0, 1)).toMatch(/OpenCode is running this session right now/)
    expect(status.asked.calls).toBeGreaterThan(first)
  })
})
