import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { fileURLToPath } from 'node:url'
import { createTestDeps, realFixture, type TestDeps } from '../../test/harness.js'
import { isolatedChildEnv } from '../../test/mcp-client.js'
import { resolveSession } from '../store/resolve-session.js'
import { checkLiveSession, type LiveSession } from './live-guard.js'
import { createOpenCodeClient } from './opencode-client.js'
import { describeHolders, fileHolders, isLoupeProcess } from './file-holders.js'
import { loopbackListeners } from './listening-ports.js'

/**
 * A process of this test's own that holds the database open, like OpenCode, and (unless `none`)
 * answers HTTP on a loopback port as told: the way a real OpenCode, a locked one, or a stranger would.
 */
const HOLDER = `
const fs = require('node:fs'); const http = require('node:http')
const [file, mode, busy] = process.argv.slice(1)
fs.openSync(file, 'r')
if (mode === 'none') { console.log('0'); setInterval(() => {}, 1000) } else {
  http.createServer((req, res) => {
    const send = (status, body) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(body) }
    if (mode === 'idle') return send(200, '{}')
    if (mode === 'busy') return send(200, busy)
    if (mode === 'auth') return req.headers.authorization === 'Basic ' + Buffer.from('alice:pw').toString('base64') ? send(200, '{}') : send(401, '')
    if (mode === 'garbage') return send(200, '<html>not OpenCode</html>')
    if (mode === 'stall') return
  }).listen(0, '127.0.0.1', function () { console.log(this.address().port) })
}`

describe('checkLive against processes that hold the database', () => {
  let deps: TestDeps
  let target: LiveSession
  let lastActiveAt: number
  let holder: ChildProcess | undefined

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    const [newestSession] = deps.opencode.db.read(() => deps.opencode.stores.byGeneration.v1!.listSessions(deps.opencode.db, { includeArchived: false, rootsOnly: true, limit: 1 }))
    const id = newestSession!.id
    target = resolveSession(deps.opencode, id, 'v1')
    const newest = deps.opencode.db.raw.prepare(`SELECT max(max(time_created), max(coalesce(json_extract(data, '$.time.completed'), 0))) FROM message WHERE session_id = ?`).pluck().get(id) as number
    lastActiveAt = Math.max(newest, target.session.timeUpdated)
  })
  afterEach(async () => {
    if (holder && holder.exitCode === null && holder.signalCode === null) {
      holder.kill('SIGKILL')
      await once(holder, 'exit')
    }
    holder = undefined
    deps.opencodeClient = createOpenCodeClient({ url: null, username: null, password: null })
  })
  afterAll(() => deps.cleanup())

  async function hold(mode: string): Promise<{ pid: number; port: number }> {
    const busy = JSON.stringify({ [target.session.id]: { type: 'busy' } })
    holder = spawn(process.execPath, ['-e', HOLDER, deps.opencode.path, mode, busy], { stdio: ['ignore', 'pipe', 'inherit'] })
    const [line] = (await once(holder.stdout!, 'data')) as [Buffer]
    return { pid: holder.pid!, port: Number(line.toString().trim()) }
  }
  const at = (offsetMs: number) => {
    deps.clock = { now: () => lastActiveAt + offsetMs }
  }

  it('allows the write when nothing holds the file', async () => {
    at(60_000)
    expect(await checkLiveSession(deps, target)).toEqual({ state: 'allowed', basis: 'not_held' })
  })

  it('finds the holder\'s loopback port and trusts its clean idle answer', async () => {
    const { pid, port } = await hold('idle')
    expect(fileHolders(deps.opencode.path)).toContain(pid)
    expect(loopbackListeners([pid])).toEqual([{ pid, url: `http://127.0.0.1:${port}` }])
    at(60_000)
    expect(await checkLiveSession(deps, target)).toEqual({ state: 'allowed', basis: 'servers_idle' })
  })

  it('locks a session the holder reports running, however old its activity', async () => {
    await hold('busy')
    at(24 * 3600_000)
    expect(await checkLiveSession(deps, target)).toMatchObject({ state: 'locked', lock: { reason: 'running', cause: 'reported' } })
  })

  it.each([
    ['auth', 'unauthorized', 'OPENCODE_SERVER_USERNAME'],
    ['garbage', 'bad_answer', 'opencode serve'],
    ['none', 'no_answer', 'opencode serve'],
  ])('when the holder answers %s: locks a session active a minute ago (%s), allows an idle one', async (mode, cause, fix) => {
    await hold(mode)
    at(60_000)
    expect(await checkLiveSession(deps, target)).toMatchObject({ state: 'locked', lock: { reason: 'recently_active', cause, fix: expect.stringContaining(fix) } })
    at(11 * 60_000)
    expect(await checkLiveSession(deps, target)).toEqual({ state: 'allowed', basis: 'quiet' })
  })

  it('sends the environment\'s user name and password to the servers it finds', async () => {
    await hold('auth')
    deps.opencodeClient = createOpenCodeClient({ url: null, username: 'alice', password: 'pw' })
    at(60_000)
    expect(await checkLiveSession(deps, target)).toEqual({ state: 'allowed', basis: 'servers_idle' })
  })

  it('counts a holder that does not answer in time as no answer, not as idle', async () => {
    await hold('stall')
    deps.opencodeClient = createOpenCodeClient({ url: null, username: null, password: null, timeouts: { statusMs: 300 } })
    at(60_000)
    expect(await checkLiveSession(deps, target)).toMatchObject({ state: 'locked', lock: { reason: 'recently_active', cause: 'no_answer' } })
  })

  it('treats an explicit --opencode-url nobody listens on as not running', async () => {
    const { port } = await hold('garbage')
    holder!.kill('SIGKILL')
    await once(holder!, 'exit')
    deps.opencodeClient = createOpenCodeClient({ url: `http://127.0.0.1:${port}`, username: null, password: null })
    at(60_000)
    expect(await checkLiveSession(deps, target)).toEqual({ state: 'allowed', basis: 'not_held' })
  })

  it('does not trust an explicit --opencode-url that answers badly, even with nothing holding the file', async () => {
    const server = http.createServer((_req, res) => res.writeHead(403).end()).listen(0, '127.0.0.1')
    await once(server, 'listening')
    try {
      deps.opencodeClient = createOpenCodeClient({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, username: null, password: null })
      at(60_000)
      expect(await checkLiveSession(deps, target)).toMatchObject({ state: 'locked', lock: { reason: 'recently_active', cause: 'unauthorized' } })
      at(11 * 60_000)
      expect(await checkLiveSession(deps, target)).toEqual({ state: 'allowed', basis: 'quiet' })
    } finally {
      server.close()
    }
  })

  it('names another Loupe (`loupe mcp`) holding the file as Loupe, not OpenCode, and still locks a recent session', async () => {
    // The real entry, as OpenCode's `local` MCP config starts it; stdin stays open, so it keeps running.
    holder = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/mcp-main.ts', '--db', deps.opencode.path, '--data-dir', `${deps.dir}/mcp-data`], {
      cwd: fileURLToPath(new URL('../../../../', import.meta.url)),
      env: isolatedChildEnv(deps.dir),
      stdio: ['pipe', 'ignore', 'inherit'],
    })
    const pid = holder.pid!
    await expect.poll(() => fileHolders(deps.opencode.path), { timeout: 20_000 }).toContain(pid)
    expect(isLoupeProcess(pid)).toBe(true)
    expect(isLoupeProcess(process.pid)).toBe(false)
    expect(describeHolders([pid])).toBe(`another Loupe (pid ${pid})`)
    at(60_000)
    const verdict = await checkLiveSession(deps, target)
    expect(verdict).toMatchObject({ state: 'locked', lock: { reason: 'recently_active', cause: 'held_by_loupe', fix: expect.stringContaining('loupe mcp') } })
    const detail = verdict.state === 'locked' ? verdict.lock.detail : ''
    expect(detail).toContain(`Another Loupe (pid ${pid}) has this file open`)
    expect(detail).not.toMatch(/OpenCode \(process/)
    at(11 * 60_000)
    expect(await checkLiveSession(deps, target)).toEqual({ state: 'allowed', basis: 'quiet' })
  })

  it('keeps blaming OpenCode for a holder it does not recognise', async () => {
    const { pid } = await hold('none')
    expect(isLoupeProcess(pid)).toBe(false)
    at(60_000)
    expect(await checkLiveSession(deps, target)).toMatchObject({ state: 'locked', lock: { cause: 'no_answer', detail: expect.stringContaining(`OpenCode (process ${pid})`) } })
  })
})
