import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { copyDb, createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { createProject, startScriptedOpencode, type ScriptedOpencode } from '../../../test/scripted-opencode.js'
import { createOpenCodeClient } from '../../opencode/opencode-client.js'
import { fileHolders } from '../../opencode/file-holders.js'
import { loopbackListeners } from '../../opencode/listening-ports.js'
import { waitFor } from '../../../test/fixtures/pruning/markers.js'

type Caller = ReturnType<typeof createCaller>
type Candidate = { messageID: string; revision: string }
/** `atEdge`: pruned after a status read said busy, but OpenCode was idle again right after the write. */
interface Tally { attempts: number; insideRunning: number; atEdge: number; idlePruned: number }

const SLOW = 'Write the long report now.'
const long = (tag: string) => `${tag}: ` + 'all of this is streamed slowly so the prompt stays running. '.repeat(8)

/**
 * Real OpenCode 1.18.33 runs a prompt slowed down (the scripted model waits between chunks, a tool
 * sleeps) while Loupe tries to prune that very session, in each configuration a person runs Loupe
 * in. Every attempt inside the running prompt must be refused; once the session is idle (or
 * OpenCode is gone), the same prunes go through.
 */
describe('checkLive: no prune lands inside a running prompt, in every configuration', () => {
  let deps: TestDeps
  let caller: Caller
  let work: string
  let project: string
  const tallies: Record<string, Tally> = {}
  let skewMs = 0

  beforeAll(async () => {
    work = tempDir('loupe-live-safety-')
    fs.mkdirSync(path.join(work, 'db'))
    deps = await createTestDeps(copyDb((await realFixture()).db, path.join(work, 'db')))
    // Real OpenCode writes wall-clock times; `skewMs` lets a test look at them from later on.
    deps.clock = { now: () => Date.now() + skewMs }
    caller = createCaller({ deps })
    project = path.join(work, 'project')
    await createProject(project, 5)
  })
  afterAll(() => {
    deps.cleanup()
    fs.rmSync(work, { recursive: true, force: true })
    // Read by the report: per mode, attempts inside the running prompt that landed, and idle prunes.
    console.log(JSON.stringify(tallies))
  })

  async function start(tag: string, auth?: { username: string; password: string }) {
    const oc = await startScriptedOpencode({ db: deps.opencode.path, work: path.join(work, `oc-${tag}`), cwd: project, delayMs: 60, auth })
    oc.script({ prompt: 'List the files.', turns: [{ reasoning: 'I will list them.', tools: [{ name: 'bash', input: { command: 'ls', description: 'list' } }] }, { tools: [{ name: 'bash', input: { command: 'echo hi', description: 'greet' } }] }, { text: 'Listed.' }] })
    oc.script({ prompt: SLOW, turns: [{ text: long('one'), tools: [{ name: 'bash', input: { command: 'sleep 3', description: 'wait' } }] }, { text: long('two') }] })
    const id = (await oc.post<{ id: string }>('/session', {}, project)).id
    await oc.post(`/session/${id}/message`, { parts: [{ type: 'text', text: 'List the files.' }] }, project)
    await waitFor(async () => !(await busy(oc, id)), 30_000, 'idle after the first prompt')
    return { oc, id }
  }

  // Running is any state but idle: `busy`, or `retry` while OpenCode waits to ask the model again.
  const busy = async (oc: ScriptedOpencode, id: string) => {
    const type = (await oc.get<Record<string, { type: string }>>('/session/status', project))[id]?.type
    return type !== undefined && type !== 'idle'
  }

  async function candidatesOf(id: string): Promise<Candidate[]> {
    const plan = await caller.pruning.sessionPlan({ sessionID: id })
    expect(plan.candidates.length).toBeGreaterThanOrEqual(2)
    return plan.candidates.map((c) => ({ messageID: c.messageID, revision: c.revision }))
  }

  /** Start the slow prompt; while OpenCode says busy, try batch and single prunes; count what landed. */
  async function pruneWhileRunning(oc: ScriptedOpencode, id: string, targets: Candidate[], tally: Tally) {
    await oc.post(`/session/${id}/prompt_async`, { parts: [{ type: 'text', text: SLOW }] }, project)
    await waitFor(() => busy(oc, id), 15_000, 'busy')
    const reasons = new Set<string>()
    while (await busy(oc, id)) {
      for (const attempt of [
        async () => (await caller.pruning.pruneBatch({ sessionID: id, candidates: targets })).results.map((r) => r.result),
        async () => [await caller.pruning.prune({ sessionID: id, ...targets[0]!, indexes: [0] })],
      ]) {
        const results = await attempt()
        const stillBusy = await busy(oc, id)
        for (const result of results) {
          tally.attempts++
          if (result.status === 'pruned') tally[stillBusy ? 'insideRunning' : 'atEdge']++
          else if ('lock' in result) reasons.add(`${result.lock.reason}/${result.lock.cause}`)
        }
        if (!stillBusy) break
      }
    }
    return reasons
  }

  async function pruneIdle(id: string, targets: Candidate[], tally: Tally) {
    const { results } = await caller.pruning.pruneBatch({ sessionID: id, candidates: targets })
    tally.idlePruned += results.filter((r) => r.result.status === 'pruned').length
    return results.map((r) => r.result.status)
  }

  it('(a) no --opencode-url: finds the server from the process holding the file', async () => {
    deps.opencodeClient = createOpenCodeClient({ url: null, username: null, password: null })
    const tally: Tally = (tallies.discovery = { attempts: 0, insideRunning: 0, atEdge: 0, idlePruned: 0 })
    const { oc, id } = await start('a')
    try {
      expect(fileHolders(deps.opencode.path)).toContain(oc.pid)
      expect(loopbackListeners([oc.pid])).toContainEqual({ pid: oc.pid, url: oc.url })
      const targets = await candidatesOf(id)
      expect(await pruneWhileRunning(oc, id, targets, tally)).toEqual(new Set(['running/reported']))
      expect(tally.attempts).toBeGreaterThan(0)
      expect(tally.insideRunning).toBe(0)
      expect(await caller.pruning.liveState({ sessionID: id })).toEqual({ state: 'allowed', basis: 'servers_idle' })
      expect(await pruneIdle(id, targets, tally)).toEqual(['pruned', 'pruned'])
    } finally {
      await oc.stop()
    }
  }, 180_000)

  it('(b) the URL and a custom user name: OpenCode with OPENCODE_SERVER_USERNAME=alice', async () => {
    const auth = { username: 'alice', password: 'correct horse battery' }
    const tally: Tally = (tallies.customUser = { attempts: 0, insideRunning: 0, atEdge: 0, idlePruned: 0 })
    const { oc, id } = await start('b', auth)
    deps.opencodeClient = createOpenCodeClient({ url: oc.url, ...auth })
    try {
      const targets = await candidatesOf(id)
      expect(await pruneWhileRunning(oc, id, targets, tally)).toEqual(new Set(['running/reported']))
      expect(tally.insideRunning).toBe(0)
      expect(await pruneIdle(id, targets, tally)).toEqual(['pruned', 'pruned'])
    } finally {
      await oc.stop()
    }
  }, 180_000)

  it('(c) a wrong password: recent and unfinished sessions stay locked, with the credentials fix; old idle ones may go', async () => {
    const auth = { username: 'alice', password: 'correct horse battery' }
    const tally: Tally = (tallies.wrongPassword = { attempts: 0, insideRunning: 0, atEdge: 0, idlePruned: 0 })
    const { oc, id } = await start('c', auth)
    deps.opencodeClient = createOpenCodeClient({ url: oc.url, username: 'alice', password: 'wrong' })
    try {
      const targets = await candidatesOf(id)
      const reasons = await pruneWhileRunning(oc, id, targets, tally)
      expect([...reasons].every((r) => r.endsWith('/unauthorized'))).toBe(true)
      expect(reasons).toContain('unfinished_message/unauthorized')
      expect(tally.insideRunning).toBe(0)
      const after = await caller.pruning.liveState({ sessionID: id })
      expect(after).toMatchObject({ state: 'locked', lock: { reason: 'recently_active', cause: 'unauthorized', fix: expect.stringContaining('OPENCODE_SERVER_USERNAME') } })
      // An hour on, the same session is an old idle one: it may be pruned while OpenCode still runs.
      skewMs = 60 * 60_000
      expect(await caller.pruning.liveState({ sessionID: id })).toEqual({ state: 'allowed', basis: 'quiet' })
    } finally {
      skewMs = 0
      await oc.stop()
    }
    const left = await candidatesOf(id)
    expect(await pruneIdle(id, left, tally)).toEqual(left.map(() => 'pruned'))
  }, 180_000)

  it('(d) discovery impossible: the server is gone but a process still holds the file', async () => {
    deps.opencodeClient = createOpenCodeClient({ url: null, username: null, password: null })
    const tally: Tally = (tallies.heldNoServer = { attempts: 0, insideRunning: 0, atEdge: 0, idlePruned: 0 })
    const { oc, id } = await start('d')
    const targets = await candidatesOf(id)
    await oc.stop()
    let holder: ChildProcess | undefined
    try {
      holder = holdOpen(deps.opencode.path)
      await waitFor(() => fileHolders(deps.opencode.path).includes(holder!.pid!), 5_000, 'the holder')
      skewMs = 60_000 // the session was active a minute ago
      const plan = await caller.pruning.sessionPlan({ sessionID: id })
      expect(plan.lock).toMatchObject({ reason: 'recently_active', cause: 'no_answer' })
      const { results } = await caller.pruning.pruneBatch({ sessionID: id, candidates: targets })
      tally.attempts += results.length
      expect(results.map((r) => r.result)).toEqual(targets.map(() => expect.objectContaining({ status: 'blocked', reason: 'maintenance_required', lock: expect.objectContaining({ reason: 'recently_active' }) })))
    } finally {
      skewMs = 0
      holder?.kill('SIGKILL')
    }
    await waitFor(() => !fileHolders(deps.opencode.path).includes(holder!.pid!), 5_000, 'the holder gone')
    expect(await caller.pruning.liveState({ sessionID: id })).toEqual({ state: 'allowed', basis: 'not_held' })
    expect(await pruneIdle(id, targets, tally)).toEqual(['pruned', 'pruned'])
  }, 180_000)
})

/** A process of this test's own that keeps `file` open (as its stdin) until killed, by its pid. */
function holdOpen(file: string): ChildProcess {
  const fd = fs.openSync(file, 'r')
  try {
    return spawn('sleep', ['300'], { stdio: [fd, 'ignore', 'ignore'] })
  } finally {
    fs.closeSync(fd)
  }
}
