import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestDeps, realFixture, type TestDeps } from '../../../test/harness.js'
import { fixedClock } from '../../lib/clock.js'
import { createOpenCodeClient } from '../../opencode/opencode-client.js'
import { startClean } from './clean-apply.service.js'
import { planClean } from './clean-plan.service.js'

const DAY = 24 * 60 * 60 * 1000

/** An OpenCode-shaped status server on loopback: `/session/status` reports the `busy` sessions running; counts requests. */
async function statusServer() {
  const busy = new Set<string>()
  // Sessions reported busy from the n-th request on (0-based): OpenCode starting one mid-run.
  const busyFrom = new Map<string, number>()
  let requests = 0
  const server = http.createServer((req, res) => {
    const n = requests++
    const url = new URL(req.url ?? '/', 'http://x')
    if (url.pathname !== '/session/status') return res.writeHead(404).end()
    const running = [...busy, ...[...busyFrom].filter(([, from]) => n >= from).map(([id]) => id)]
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(Object.fromEntries(running.map((id) => [id, { type: 'busy' }]))))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, busy, busyFrom, requests: () => requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

let deps: TestDeps | undefined
let status: Awaited<ReturnType<typeof statusServer>> | undefined
afterEach(async () => {
  deps?.cleanup()
  await status?.close()
  deps = undefined
  status = undefined
})

describe('retention clean-up and the live guard', () => {
  it('asks OpenCode once per plan (one status read per directory), skips the session it runs, and apply refuses one that started since', async () => {
    deps = await createTestDeps((await realFixture()).db)
    status = await statusServer()
    deps.opencodeClient = createOpenCodeClient({ url: status.url, username: null, password: null })
    const newest = deps.opencode.db.getSql<{ t: number }>(`SELECT max(time_updated) AS t FROM session`)?.t ?? 0
    deps.clock = fixedClock(newest + 10 * DAY)
    // One status read per 1.x directory, and one for 2.x (1.18's experimental sessions): the distinct reads of one check.
    const reads = (deps.opencode.db.getSql<{ n: number }>(`SELECT count(DISTINCT directory) AS n FROM session`)?.n ?? 0) + 1

    const open = await planClean(deps, { idleDays: 1 })
    expect(open.sessions).toBeGreaterThan(2)
    const [running, startsLater] = open.all.map((s) => s.sessionID)
    status.busy.add(running!)
    const before = status.requests()
    const plan = await planClean(deps, { idleDays: 1 })
    // One checkLive for the whole plan, not one per session or message.
    const perCheck = status.requests() - before
    expect(perCheck).toBeGreaterThan(0)
    expect(perCheck).toBeLessThanOrEqual(reads)
    expect(plan.skipped).toEqual([expect.objectContaining({ sessionID: running, reason: expect.stringMatching(/OpenCode is running this session/) })])
    expect(plan.all.map((s) => s.sessionID)).not.toContain(running)

    // OpenCode starts that session after apply's own re-plan (one check) matched the fingerprint.
    const planned = plan.all.find((s) => s.sessionID === startsLater)!
    const atApply = status.requests()
    status.busyFrom.set(startsLater!, atApply + perCheck)
    const applied = await startClean(deps, { rule: { idleDays: 1 }, fingerprint: plan.fingerprint }, { wait: true })
    // The re-plan, then one check for the group of sessions (this fixture's fit in one), not one per session or batch.
    expect(status.requests() - atApply).toBeGreaterThan(perCheck)
    expect(status.requests() - atApply).toBeLessThanOrEqual(2 * perCheck)
    expect(applied).toMatchObject({ status: 'started', result: { status: 'done', pruned: { blocked: planned.targets.length, parts: plan.parts - planned.parts } } })
    const left = await planClean(deps, { idleDays: 1 })
    expect(left.skipped.map((s) => s.sessionID).sort()).toEqual([running, startsLater].sort())
    expect(left.sessions).toBe(0)
  })
})
