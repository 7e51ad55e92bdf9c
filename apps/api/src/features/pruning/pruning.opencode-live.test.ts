import Database from 'better-sqlite3'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOpenCodeClient } from '../../opencode/opencode-client.js'
import { copyDb, createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { createProject, startScriptedOpencode, type ScriptedOpencode } from '../../../test/scripted-opencode.js'
import { cloneSession } from '../../../test/fixtures/pruning/big-session.js'
import { fixtureIds } from '../../../test/fixtures/pruning/fixture-ids.js'
import { diffSnapshots, snapshotDb } from '../../../test/fixtures/pruning/db-snapshot.js'
import { waitFor } from '../../../test/fixtures/pruning/markers.js'

const TARGETS: string[] = []
let PLAN = ''
type Caller = ReturnType<typeof createCaller>

const busy = async (oc: ScriptedOpencode, directory: string, sessionID: string) =>
  (await oc.get<Record<string, { type: string }>>('/session/status', directory))[sessionID]?.type === 'busy'

/** Clean every target session completely, batch by batch, as the UI does; every answer must be typed. */
async function cleanTargets(caller: Caller, answers: string[]) {
  for (let round = 0; round < 40; round++) {
    let left = 0
    for (const sessionID of TARGETS) {
      const plan = await caller.pruning.sessionPlan({ sessionID })
      left += plan.candidates.length
      for (let i = 0; i < plan.candidates.length; i += 16) {
        const candidates = plan.candidates.slice(i, i + 16).map((c) => ({ messageID: c.messageID, revision: c.revision }))
        const { results } = await caller.pruning.pruneBatch({ sessionID, candidates })
        answers.push(...results.map((r) => (r.result.status === 'blocked' ? r.result.reason : r.result.status)))
      }
    }
    if (left === 0) return
  }
  throw new Error('the targets never got clean')
}

describe('pruning while a real OpenCode server writes to the same database', () => {
  let deps: TestDeps
  let caller: Caller
  let work: string
  let project: string

  beforeAll(async () => {
    work = tempDir('loupe-live-')
    fs.mkdirSync(path.join(work, 'db'))
    const fixture = await realFixture()
    const ids = fixtureIds(fixture.dir)
    TARGETS.push(ids.tour, ids.errors)
    PLAN = ids.plan
    const file = copyDb(fixture.db, path.join(work, 'db'))
    for (const s of TARGETS) cloneSession(file, s, 15)
    deps = await createTestDeps(file)
    caller = createCaller({ deps })
    project = path.join(work, 'project')
    await createProject(project, 9)
  })
  afterAll(() => {
    deps.cleanup()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('keeps both working: typed answers only, integrity ok, nothing outside the targets and OpenCode\'s own session changes', async () => {
    const oc = await startScriptedOpencode({ db: deps.opencode.path, work: path.join(work, 'oc'), cwd: project })
    deps.opencodeClient = createOpenCodeClient({ url: oc.url, username: null, password: null })
    const before = snapshotDb(deps.opencode.path)
    const answers: string[] = []
    let live = ''
    try {
      const steps = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ text: `Step ${i}.`, tools: [{ name: 'bash', input: { command: `echo ${tag}-${i} && sleep 0.1`, description: `step ${i}` } }] }))
      const prompts = ['Run the first series of steps.', 'Run the second series of steps.', 'Run the third series of steps.']
      prompts.forEach((prompt, k) => oc.script({ prompt, turns: [...steps(8, `s${k}`), { text: 'All steps done.' }] }))
      live = (await oc.post<{ id: string }>('/session', {}, project)).id
      const writer = (async () => {
        for (const prompt of prompts) {
          const reply = await oc.post<{ info: { error?: unknown } }>(`/session/${live}/message`, { parts: [{ type: 'text', text: prompt }] }, project)
          expect(reply.info.error).toBeUndefined()
        }
      })()
      await cleanTargets(caller, answers)
      await writer
      await waitFor(async () => !(await busy(oc, project, live)), 30_000, 'OpenCode idle')
    } finally {
      await oc.stop()
    }
    expect(answers.length).toBeGreaterThan(0)
    expect(new Set(answers)).toEqual(new Set(answers.filter((a) => ['pruned', 'maintenance_required', 'conflict'].includes(a))))
    expect(answers).toContain('pruned')

    const raw = new Database(deps.opencode.path, { readonly: true })
    expect(raw.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(raw.pragma('foreign_key_check')).toEqual([])
    const liveMessages = raw.prepare(`SELECT count(*) FROM message WHERE session_id = ?`).pluck().get(live) as number
    raw.close()
    expect(liveMessages).toBeGreaterThan(20)

    const diff = diffSnapshots(before, snapshotDb(deps.opencode.path))
    const mine = (key: string, text: string) => key.startsWith('loupe_prune_receipt:') || TARGETS.some((s) => text.includes(s))
    // OpenCode's own writes: its live session, and the project rows it registers for every directory
    // it is asked about (including the stale fixture directories the status checks name).
    const opencodes = (text: string, key = '') => text.includes(live) || text.includes(project) || /^project(_directory)?:/.test(key)
    const after = snapshotDb(deps.opencode.path)
    const outside = [
      ...diff.changed.filter((k) => !mine(k, after.get(k)!) && !opencodes(after.get(k)!, k)),
      ...diff.added.filter((k) => !mine(k, after.get(k)!) && !opencodes(after.get(k)!, k)),
      ...diff.removed.filter((k) => !mine(k, before.get(k)!)),
    ]
    expect(outside.map((k) => `${k} ${after.get(k)}`)).toEqual([])
    // Loupe removed only technical parts of its targets.
    const technical = (k: string) => k.startsWith('part:') && ['tool', 'reasoning'].includes((JSON.parse((JSON.parse(before.get(k)!) as { data: string }).data) as { type: string }).type)
    expect(diff.removed.filter((k) => !technical(k))).toEqual([])
    expect(diff.removed.length).toBeGreaterThan(100)
  }, 300_000)

  it('refuses a session the configured OpenCode server reports busy, and prunes it once idle', async () => {
    const oc = await startScriptedOpencode({ db: deps.opencode.path, work: path.join(work, 'oc-busy'), cwd: project })
    deps.opencodeClient = createOpenCodeClient({ url: oc.url, username: null, password: null })
    try {
      oc.script({ prompt: 'List the files.', turns: [{ reasoning: 'I will list them.', tools: [{ name: 'bash', input: { command: 'ls', description: 'list' } }] }, { text: 'Listed.' }] })
      oc.script({ prompt: 'Now wait a little.', turns: [{ tools: [{ name: 'bash', input: { command: 'sleep 4', description: 'wait' } }] }, { text: 'Waited.' }] })
      const id = (await oc.post<{ id: string }>('/session', {}, project)).id
      await oc.post(`/session/${id}/message`, { parts: [{ type: 'text', text: 'List the files.' }] }, project)
      await waitFor(async () => !(await busy(oc, project, id)), 30_000, 'idle')
      const plan = await caller.pruning.sessionPlan({ sessionID: id })
      const target = plan.candidates[0]!
      await fetch(`${oc.url}/session/${id}/prompt_async?directory=${encodeURIComponent(project)}`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ parts: [{ type: 'text', text: 'Now wait a little.' }] }),
      })
      await waitFor(() => busy(oc, project, id), 10_000, 'busy')
      expect(await caller.pruning.preview({ sessionID: id, messageID: target.messageID })).toMatchObject({ status: 'blocked', reason: 'maintenance_required' })
      expect(await caller.pruning.pruneBatch({ sessionID: id, candidates: [{ messageID: target.messageID, revision: target.revision }] }))
        .toMatchObject({ results: [{ result: { status: 'blocked', reason: 'maintenance_required' } }] })
      await waitFor(async () => !(await busy(oc, project, id)), 30_000, 'idle again')
      expect(await caller.pruning.pruneBatch({ sessionID: id, candidates: [{ messageID: target.messageID, revision: target.revision }] }))
        .toMatchObject({ results: [{ result: { status: 'pruned' } }] })
    } finally {
      await oc.stop()
      deps.opencodeClient = createOpenCodeClient({ url: null, username: null, password: null })
    }
  }, 120_000)

  it('treats a configured server that nobody listens on as not running, when nothing holds the file', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port
        s.close(() => resolve(p))
      })
    })
    deps.opencodeClient = createOpenCodeClient({ url: `http://127.0.0.1:${port}`, username: null, password: null })
    try {
      const s = PLAN
      const plan = await caller.pruning.sessionPlan({ sessionID: s })
      expect(plan.live).toEqual({ state: 'allowed', basis: 'not_held' })
      const preview = await caller.pruning.preview({ sessionID: s, messageID: plan.candidates[0]!.messageID })
      expect(preview).toMatchObject({ status: 'preview', live: { state: 'allowed' } })
    } finally {
      deps.opencodeClient = createOpenCodeClient({ url: null, username: null, password: null })
    }
  })
})
