// Prune benchmark (not a test): `node --import tsx bench/prune.bench.ts`.
// Prints p50/p95 of one prune of a 1 MiB message with its event log, on both storage generations,
// and the wall time of a whole-session cleanup of 1,000 messages (plan + batches of 16).
// Targets (DEVELOPERS.md / issue 3): prune p50 <= 5 ms; whole-session cleanup <= 2 s.
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { copyDb, createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../apps/api/test/harness.js'
import { ascendingId, cloneSession } from '../apps/api/test/fixtures/pruning/big-session.js'
import { fixtureIds } from '../apps/api/test/fixtures/pruning/fixture-ids.js'
import { buildV2Fixture } from '../apps/api/test/fixtures/pruning/v2-fixture.js'

let TOUR = ''
let V2_TOUR = ''
let V2_MESSAGE = ''
const SAMPLES = 30
const MiB = 1024 * 1024

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!
const fmt = (ms: number) => `${ms.toFixed(2)} ms`
const line = (text: string) => process.stdout.write(text + '\n')

/** `count` 1.x sessions, each one assistant message with a 1 MiB bash part, reasoning, and OpenCode's event stream for it. */
function addOneMiBSessions(file: string, count: number): string[] {
  const db = new Database(file)
  const template = db.prepare(`SELECT * FROM session WHERE id = ?`).get(TOUR) as Record<string, unknown>
  const out = '0123456789abcdef '.repeat(MiB / 2 / 17)
  const ids: string[] = []
  db.transaction(() => {
    for (let s = 0; s < count; s++) {
      const t = 1_900_000_000_000 + s * 60_000
      const sessionID = `ses_bench${String(s).padStart(4, '0')}aaaaaaaaaaaaaaaaa`
      db.prepare(`INSERT INTO session (${Object.keys(template).join(',')}) VALUES (${Object.keys(template).map(() => '?').join(',')})`)
        .run(...Object.values({ ...template, id: sessionID, time_created: t, time_updated: t }))
      const msg = ascendingId('msg', t, 1)
      const parts = {
        start: { id: ascendingId('prt', t, 1), data: { type: 'step-start' } },
        reasoning: { id: ascendingId('prt', t, 2), data: { type: 'reasoning', text: 'Thinking about the output. '.repeat(80), time: { start: t, end: t + 5 } } },
        tool: { id: ascendingId('prt', t, 3), data: { type: 'tool', tool: 'bash', callID: `call_bench${s}`, state: { status: 'completed', input: { command: 'cat big.log', description: 'Show the log' }, output: out, metadata: { output: out, exit: 0, truncated: false }, title: 'cat big.log', time: { start: t, end: t + 50 } } } },
        finish: { id: ascendingId('prt', t, 4), data: { type: 'step-finish', reason: 'stop', cost: 0, tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } } } },
      }
      db.prepare(`INSERT INTO message VALUES (?, ?, ?, ?, ?)`).run(msg, sessionID, t, t + 60, JSON.stringify({ role: 'assistant', time: { created: t, completed: t + 60 }, parentID: msg, modelID: 'm', providerID: 'p', mode: 'build', agent: 'build', path: { cwd: '/', root: '/' }, cost: 0, tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } }, finish: 'stop' }))
      for (const p of Object.values(parts)) db.prepare(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`).run(p.id, msg, sessionID, t, t, JSON.stringify(p.data))
      // The log OpenCode writes for it: every intermediate state in full (opencode-storage.md §8.4).
      const full = (p: { id: string; data: object }) => ({ ...p.data, id: p.id, sessionID, messageID: msg })
      const tool = parts.tool.data
      const events = [
        ['session.created.1', { sessionID, info: { id: sessionID } }],
        ['message.updated.1', { sessionID, info: { id: msg, sessionID, role: 'assistant', time: { created: t } } }],
        ...Object.values(parts).map((p) => ['message.part.updated.1', { sessionID, part: full(p), time: t }]),
        ['message.part.updated.1', { sessionID, part: full({ id: parts.tool.id, data: { ...tool, state: { status: 'pending', input: {}, raw: '' } } }), time: t }],
        ['message.part.updated.1', { sessionID, part: full({ id: parts.tool.id, data: { ...tool, state: { status: 'running', input: tool.state.input, metadata: { output: out.slice(0, out.length / 2) }, time: { start: t } } } }), time: t }],
        ['message.part.updated.1', { sessionID, part: full({ id: parts.reasoning.id, data: { ...parts.reasoning.data, text: '' } }), time: t }],
      ] as const
      db.prepare(`INSERT INTO event_sequence VALUES (?, ?, NULL)`).run(sessionID, events.length - 1)
      events.forEach(([type, data], seq) => db.prepare(`INSERT INTO event VALUES (?, ?, ?, ?, ?)`).run(ascendingId('evt', t, seq + 1), sessionID, seq, type, JSON.stringify(data)))
      ids.push(sessionID)
    }
  })()
  db.close()
  return ids
}

async function timePrunes(deps: TestDeps, targets: Array<{ sessionID: string; storage?: 'v1' | 'v2' }>) {
  const caller = createCaller({ deps })
  const times: number[] = []
  let bytes = 0
  for (const { sessionID, storage } of targets) {
    const plan = await caller.pruning.sessionPlan({ sessionID, ...(storage ? { storage } : {}) })
    const c = plan.candidates.reduce((a, b) => (b.bytes > a.bytes ? b : a))
    const preview = await caller.pruning.preview({ sessionID, messageID: c.messageID, ...(storage ? { storage } : {}) })
    if (preview.status !== 'preview') throw new Error(preview.detail)
    bytes = Math.max(bytes, c.bytes)
    const t0 = performance.now()
    const result = await caller.pruning.prune({ sessionID, messageID: c.messageID, revision: preview.revision, indexes: preview.parts.map((p) => p.index) })
    times.push(performance.now() - t0)
    if (result.status !== 'pruned') throw new Error(`${result.status}: ${JSON.stringify(result)}`)
  }
  return { times, bytes }
}

async function main() {
  const fixture = await realFixture()
  const real = fixture.db
  const ids = fixtureIds(fixture.dir)
  TOUR = ids.tour
  V2_TOUR = ids.v2.tour
  V2_MESSAGE = ids.v2.tourMessage
  const work = tempDir('loupe-bench-')
  try {
    // 1. One prune of a 1 MiB message with its events (1.x: part rows + redacted log + appended removals).
    const v1File = copyDb(real, fs.mkdirSync(path.join(work, 'v1'), { recursive: true }) ?? path.join(work, 'v1'))
    const sessions = addOneMiBSessions(v1File, SAMPLES)
    const v1 = await createTestDeps(v1File)
    const r1 = await timePrunes(v1, sessions.map((sessionID) => ({ sessionID })))
    line(`prune 1.x, ${(r1.bytes / MiB).toFixed(2)} MiB of technical parts + ${(3 * 0.75).toFixed(1)} MiB of events, ${SAMPLES} samples: p50 ${fmt(percentile(r1.times, 50))}, p95 ${fmt(percentile(r1.times, 95))}   (target p50 <= 5 ms)`)
    // Prunes commit without checkpointing; the deferred PASSIVE checkpoint is paid between requests.
    const wal = v1.opencode.fileSizes().wal
    const c0 = performance.now()
    v1.opencode.db.raw.pragma('wal_checkpoint(PASSIVE)')
    line(`  deferred checkpoint of ${(wal / MiB).toFixed(1)} MiB of WAL after ${SAMPLES} prunes: ${fmt(performance.now() - c0)} (${fmt((performance.now() - c0) / SAMPLES)} per prune)`)
    v1.cleanup()

    // 2.x: one session_message row whose content holds a 1 MiB tool item, compare-and-swap rewrite.
    const v2Samples: TestDeps[] = []
    const v2Times: number[] = []
    for (let i = 0; i < 10; i++) {
      const { file } = buildV2Fixture(real, path.join(work, `v2-${i}`, 'opencode.db'))
      const db = new Database(file)
      db.prepare(`UPDATE session_message SET data = json_set(data, '$.content[2].state.content[0].text', ?) WHERE id = ?`).run('y'.repeat(MiB), V2_MESSAGE)
      db.close()
      const deps = await createTestDeps(file)
      v2Samples.push(deps)
      v2Times.push(...(await timePrunes(deps, [{ sessionID: V2_TOUR, storage: 'v2' }])).times)
      deps.cleanup()
    }
    line(`prune 2.x, 1 MiB session_message row with its events, ${v2Times.length} samples: p50 ${fmt(percentile(v2Times, 50))}, p95 ${fmt(percentile(v2Times, 95))}`)

    // 2. Whole-session cleanup of 1,000 messages: plan, then batches of 16 as the UI runs them.
    const bigFile = copyDb(real, fs.mkdirSync(path.join(work, 'big'), { recursive: true }) ?? path.join(work, 'big'))
    cloneSession(bigFile, TOUR, 199)
    const big = await createTestDeps(bigFile)
    const caller = createCaller({ deps: big })
    const t0 = performance.now()
    const plan = await caller.pruning.sessionPlan({ sessionID: TOUR })
    const tPlan = performance.now() - t0
    let pruned = 0
    for (let i = 0; i < plan.candidates.length; i += 16) {
      const { results } = await caller.pruning.pruneBatch({ sessionID: TOUR, candidates: plan.candidates.slice(i, i + 16).map((c) => ({ messageID: c.messageID, revision: c.revision })) })
      pruned += results.filter((r) => r.result.status === 'pruned').length
    }
    const total = performance.now() - t0
    const eventBytes = new Database(big.opencode.path, { readonly: true }).prepare(`SELECT sum(length(data)) FROM event WHERE aggregate_id = ?`).pluck().get(TOUR) as number
    line(`whole-session cleanup, ${plan.totals.messages} messages (${plan.candidates.length} with technical parts, ${pruned} pruned, ${(eventBytes / MiB).toFixed(1)} MiB of events): plan ${fmt(tPlan)}, total ${fmt(total)}   (target <= 2 s)`)
    big.cleanup()
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}

await main()
