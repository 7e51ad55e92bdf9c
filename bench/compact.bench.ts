// Event-log compaction benchmark (not a test): `node --import tsx bench/compact.bench.ts [--mb N]`.
// 1. The bloat fixture (the real OpenCode 1.18.33 running a bash progress stream): file bytes before,
//    after compaction, after VACUUM of a copy.
// 2. A generated DB of N MB of event log (default 256) with snapshot chains as streaming writes them:
//    the compaction rate in MB of event log per second (target >= 100 MB/s on 2 cores), peak RSS.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { BLOAT_FIXTURE, ensureRealFixture } from '../tools/fixtures.mjs'
import { copyDb, createTestDeps, realFixture, tempDir } from '../apps/api/test/harness.js'
import { compactEventLog } from '../apps/api/src/features/storage/compact.service.js'

const MB = 1024 * 1024
const args = process.argv.slice(2)
const sizeArg = args.indexOf('--mb')
const TARGET_MB = sizeArg >= 0 ? Number(args[sizeArg + 1]) : 256
if (!(TARGET_MB > 0)) throw new Error('--mb needs a positive number')
const line = (text: string) => process.stdout.write(text + '\n')
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`
let peakRss = 0
// On a shared machine the wall time includes waiting for a core; the CPU time is the work itself.
let cpuMs = 0
const sampleRss = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss))

const fileBytes = (file: string) => fs.statSync(file).size + (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0)
const eventBytes = (file: string) => {
  const db = new Database(file, { readonly: true })
  try {
    return (db.prepare(`SELECT sum(octet_length(data)) FROM event`).pluck().get() as number | null) ?? 0
  } finally {
    db.close()
  }
}

/** Compact `file` in place (through the service, as the API and the CLI do); returns the answer and the wall time. */
async function compact(file: string) {
  const deps = await createTestDeps(file, {}, { copy: false })
  try {
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    const answer = await compactEventLog(deps, { dryRun: false }, sampleRss)
    const ms = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    cpuMs = (cpu.user + cpu.system) / 1000
    deps.opencode.db.raw.pragma('wal_checkpoint(TRUNCATE)')
    return { answer, ms }
  } finally {
    deps.cleanup()
  }
}

function vacuum(file: string): number {
  const db = new Database(file)
  db.exec('VACUUM')
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  return fileBytes(file)
}

async function bloatFixture() {
  const source = path.join(await ensureRealFixture(BLOAT_FIXTURE, { name: 'bloat' }), 'opencode.db')
  const file = copyDb(source, tempDir('loupe-bench-compact-'))
  const before = fileBytes(file)
  const events = eventBytes(file)
  const { answer, ms } = await compact(file)
  const afterCompaction = fileBytes(file)
  const afterVacuum = vacuum(file)
  line(`bloat fixture: ${mb(before)} file (${mb(events)} of event payload); ${answer.eventsRedacted} events redacted in ${ms.toFixed(0)} ms`)
  line(`  event payload ${mb(answer.eventBytesBefore)} -> ${mb(answer.eventBytesAfter)}; file after compaction ${mb(afterCompaction)}, after VACUUM ${mb(afterVacuum)} (${((afterVacuum / before) * 100).toFixed(1)} % of before; target <= 15 %)`)
  fs.rmSync(path.dirname(file), { recursive: true, force: true })
}

/**
 * Sessions shaped like streaming writes them (opencode-storage.md §8.4): per turn a user and an
 * assistant message (two snapshots), reasoning and text (empty, then full), a bash part through
 * pending, ~150 running states of growing output (capped at 30 KB like OpenCode's metadata) and
 * completed, a step-finish; three session snapshots. Rows go in beside the real fixture's schema.
 */
function generateChains(file: string, targetBytes: number): { sessions: number; events: number; bytes: number } {
  const db = new Database(file)
  const template = db.prepare(`SELECT * FROM session WHERE id IN (SELECT session_id FROM message) LIMIT 1`).get() as Record<string, unknown>
  const cols = Object.keys(template)
  const insertSession = db.prepare(`INSERT INTO session (${cols.join(',')}) VALUES (${cols.map(() => '?').join(',')})`)
  const insertEvent = db.prepare(`INSERT INTO event (id, aggregate_id, seq, type, data) VALUES (?, ?, ?, ?, ?)`)
  const insertSeq = db.prepare(`INSERT INTO event_sequence (aggregate_id, seq, owner_id) VALUES (?, 0, NULL)`)
  const setSeq = db.prepare(`UPDATE event_sequence SET seq = ? WHERE aggregate_id = ?`)
  const line80 = 'compiling module_0000.js ............................................ ok\n'
  let bytes = 0
  let events = 0
  let sessions = 0
  db.transaction(() => {
    while (bytes < targetBytes) {
      const n = String(sessions).padStart(6, '0')
      const sid = `ses_bench${n}aaaaaaaaaaaaaaaa`
      const t = 1_900_000_000_000 + sessions * 60_000
      insertSession.run(...cols.map((c) => (c === 'id' ? sid : c === 'time_created' || c === 'time_updated' ? t : template[c])))
      insertSeq.run(sid)
      let seq = 0
      const put = (type: string, data: object) => {
        const text = JSON.stringify(data)
        insertEvent.run(`evt_bench${n}${String(seq).padStart(6, '0')}`, sid, seq++, type, text)
        bytes += text.length
        events++
      }
      const info = { id: sid, slug: 'bench', projectID: String(template.project_id), directory: String(template.directory), title: `Bench ${n}`, version: '1.18.33', time: { created: t, updated: t } }
      put('session.created.1', { sessionID: sid, info })
      const user = `msg_bench${n}u`
      const asst = `msg_bench${n}a`
      put('message.updated.1', { sessionID: sid, info: { id: user, sessionID: sid, role: 'user', time: { created: t }, agent: 'build', model: { providerID: 'mock', modelID: 'scripted' }, summary: { diffs: [] } } })
      put('session.updated.1', { sessionID: sid, info: { ...info, time: { created: t, updated: t + 1 } } })
      const assistant = { id: asst, sessionID: sid, role: 'assistant', time: { created: t + 2 }, parentID: user, modelID: 'scripted', providerID: 'mock', mode: 'build', agent: 'build', path: { cwd: '/p', root: '/p' }, cost: 0, tokens: { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } } }
      put('message.updated.1', { sessionID: sid, info: assistant })
      const part = (id: string, body: object) => put('message.part.updated.1', { sessionID: sid, part: { id: `prt_bench${n}${id}`, sessionID: sid, messageID: asst, ...body }, time: t + 3 })
      part('r', { type: 'reasoning', text: '', time: { start: t } })
      part('r', { type: 'reasoning', text: 'Let me run the build and watch its output. '.repeat(20), time: { start: t, end: t + 5 } })
      const tool = { type: 'tool', callID: `call_${n}`, tool: 'bash' }
      const input = { command: 'npm run build', description: 'Build' }
      part('b', { ...tool, state: { status: 'pending', input: {}, raw: '' } })
      let output = ''
      for (let k = 0; k < 150; k++) {
        output = (output + line80.repeat(3)).slice(-30_000)
        part('b', { ...tool, state: { status: 'running', input, title: 'npm run build', metadata: { output, description: 'Build' }, time: { start: t } } })
      }
      part('b', { ...tool, state: { status: 'completed', input, output, title: 'npm run build', metadata: { output, exit: 0, description: 'Build', truncated: false }, time: { start: t, end: t + 9 } } })
      part('t', { type: 'text', text: '' })
      part('t', { type: 'text', text: 'The build finished without errors.', time: { start: t + 9, end: t + 10 } })
      part('f', { type: 'step-finish', reason: 'stop', cost: 0, tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } } })
      put('message.updated.1', { sessionID: sid, info: { ...assistant, time: { created: t + 2, completed: t + 10 }, finish: 'stop', tokens: { input: 10, output: 5, reasoning: 0, cache: { read: 0, write: 0 } } } })
      put('session.updated.1', { sessionID: sid, info: { ...info, time: { created: t, updated: t + 10 } } })
      setSeq.run(seq - 1, sid)
      sessions++
    }
  })()
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  return { sessions, events, bytes }
}

async function generatedChains() {
  const dir = tempDir('loupe-bench-chains-')
  const file = copyDb((await realFixture()).db, dir)
  const t0 = performance.now()
  const made = generateChains(file, TARGET_MB * MB)
  line(`generated: ${made.sessions} sessions, ${made.events} events, ${mb(made.bytes)} of event payload in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const before = fileBytes(file)
  const { answer, ms } = await compact(file)
  const rate = answer.eventBytesBefore / MB / (ms / 1000)
  line(`  compaction: ${answer.eventsRedacted} events redacted, event payload ${mb(answer.eventBytesBefore)} -> ${mb(answer.eventBytesAfter)} in ${(ms / 1000).toFixed(2)} s wall = ${rate.toFixed(0)} MB/s of event log (target >= 100 MB/s)`)
  line(`  CPU time of the compaction ${(cpuMs / 1000).toFixed(2)} s = ${(answer.eventBytesBefore / MB / (cpuMs / 1000)).toFixed(0)} MB/s per busy core; load average ${os.loadavg()[0]!.toFixed(1)}`)
  const afterVacuum = vacuum(file)
  line(`  file ${mb(before)} -> ${mb(afterVacuum)} after VACUUM; peak RSS ${mb(peakRss)}`)
  fs.rmSync(dir, { recursive: true, force: true })
}

await bloatFixture()
await generatedChains()
