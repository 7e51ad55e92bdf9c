// Server memory benchmark (prints numbers; asserts nothing; not part of `npm test`).
//
//   node --import tsx bench/memory.bench.ts [--run dist|bin|tsx] [--idle-s 5] [--settle-s 20] [--jobs build,search,…] [--trace] [--keep]
//
// Starts the real Loupe server (tools/loupe-server.mjs) the way `npm start` does (`--run dist`, the
// default: the api's JS build, rebuilt first, on plain node with the launchers' environment; `--run
// bin`: the same build as an installed package's `loupe serve`; `--run tsx`: the TypeScript through tsx) on a private copy of the bench database
// (bench-db.ts) with an empty data dir, samples the process's RSS (all threads, /proc/<pid>/status)
// every 250 ms and resets its VmHWM before each job, then prints each long job's peak and the RSS
// left a few seconds after it: the index build (with the worker's own rate and the rate per CPU
// second), a whole-DB clean-up plan, ranked searches, gallery paging through the 10,000-message
// session, thumbnails, the storage doctor, compaction dry run and apply, reclaim, and the rebuild
// of the index a reclaim starts. Targets (issue 25): build peak ≤ 300 MB, idle ≤ 150 MB, ≥ 20 MB/s.
import Database from 'better-sqlite3'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { repoRoot, startLoupeServer } from '../tools/loupe-server.mjs'
import { copyBenchDb, ensureBenchDb } from './bench-db.js'
import { cpuSeconds, createSampler, readMemory, type PhaseMemory } from './memory-sampler.js'
import { readMemoryParts, type MemoryParts } from './smaps-breakdown.js'

const args = process.argv.slice(2)
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
const IDLE_S = Number(flag('--idle-s') ?? 5)
/** A second reading, once V8's memory reducer has had time to give back the heap a job grew (0: none). */
const SETTLE_S = Number(flag('--settle-s') ?? 20)
/** Jobs whose name contains one of these words (the build always runs first); all by default. */
const ONLY = flag('--jobs')?.split(',')
const RUNS = ['dist', 'bin', 'tsx'] as const
const RUN = (flag('--run') ?? 'dist') as (typeof RUNS)[number]
if (!RUNS.includes(RUN)) throw new Error(`--run dist|bin|tsx, not ${RUN}`)
const mb = (kb: number) => (kb / 1024).toFixed(0)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Status { state: string; indexedParts: number; totalParts: number; bytes: number; mbPerSecond: number }
interface Row { job: string; memory: PhaseMemory; idleKb: number; settledKb: number | null; idleAnonKb: number; idleFileKb: number; threads: number; wallS: number; cpuS: number; note: string; parts: MemoryParts | null }

async function main() {
  const bench = ensureBenchDb()
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-memory-bench-'))
  const db = copyBenchDb(bench, path.join(work, 'db'))
  const loadBefore = os.loadavg()
  console.log(`database copy ${db} (${(fs.statSync(db).size / 1e6).toFixed(0)} MB, ${bench.parts} parts, ${bench.sessions} sessions); load ${loadBefore.map((l) => l.toFixed(1)).join(' ')}`)
  const imageSession = sessionWithMostImages(db)

  // The build is rebuilt from this checkout's source, so both modes measure the same code.
  if (RUN !== 'tsx') execFileSync(process.execPath, ['apps/api/scripts/build-js.mjs'], { cwd: repoRoot, stdio: 'inherit' })
  const server = await startLoupeServer({ db, dir: work, readyTimeoutMs: 180_000, run: RUN === 'tsx' ? 'source' : RUN })
  const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' }
  // node:http rather than fetch: a whole-DB job can answer after fetch's 300 s header timeout.
  const call = async <T>(proc: string, input?: unknown, mutation = false): Promise<T> => {
    const query = !mutation && input !== undefined ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ''
    const res = await request(`${server.baseURL}/trpc/${proc}${query}`, headers, mutation ? JSON.stringify(input ?? null) : undefined)
    const body = JSON.parse(res.body.toString('utf8')) as { result?: { data: T }; error?: unknown }
    if (res.status !== 200 || !body.result) throw new Error(`${proc} failed: ${JSON.stringify(body.error)}`)
    return body.result.data
  }
  const sampler = createSampler(server.pid)
  const rows: Row[] = []
  const idle = async () => {
    await sleep(IDLE_S * 1000)
    return readMemory(server.pid)!
  }
  // `settle: false`: the reclaim, whose index rebuild starts within seconds and is the next job.
  const job = async (name: string, fn: () => Promise<string>, { resetPeak = true, settle = true } = {}) => {
    if (resetPeak && ONLY && !ONLY.some((word) => name.includes(word))) return
    const { value: note, memory, wallS, cpuS } = await sampler.phase(fn, resetPeak)
    const after = await idle()
    const settled = settle && SETTLE_S > IDLE_S ? (await sleep((SETTLE_S - IDLE_S) * 1000), readMemory(server.pid)!) : null
    // Read at the last idle reading: what the job left once the server had been idle longest.
    const parts = readMemoryParts(server.pid)
    rows.push({ job: name, memory, idleKb: after.rssKb, settledKb: settled?.rssKb ?? null, idleAnonKb: after.anonKb, idleFileKb: after.fileKb, threads: after.threads, wallS, cpuS, note, parts })
    console.log(`  ${name}: peak ${mb(memory.hwmKb)} MB, ${IDLE_S} s after ${mb(after.rssKb)} MB${settled ? `, ${SETTLE_S} s after ${mb(settled.rssKb)} MB` : ''} (${note})`)
  }
  // --trace: RSS beside the build's progress every 5 s, to see which stage the peak belongs to.
  const untilReady = async () => {
    let status = await call<Status>('history.status')
    // The rate is the build worker's; the follower that replaces it reports only its own catch-up.
    let built = status
    for (let last = 0; status.state !== 'ready'; ) {
      if (status.state === 'error' || status.state === 'unavailable') throw new Error(`index ${status.state}`)
      await sleep(250)
      status = await call<Status>('history.status')
      if (status.bytes >= built.bytes) built = status
      if (args.includes('--trace') && performance.now() - last > 5000) {
        last = performance.now()
        const m = readMemory(server.pid)
        console.log(`    ${status.indexedParts}/${status.totalParts} rows: RSS ${mb(m?.rssKb ?? 0)} MB, peak ${mb(m?.hwmKb ?? 0)} MB, ${m?.threads} threads`)
      }
    }
    return status.bytes >= built.bytes ? status : { ...status, bytes: built.bytes, mbPerSecond: built.mbPerSecond }
  }
  const buildNote = (s: Status, cpuS: number) =>
    `${(s.bytes / 1e6).toFixed(0)} MB of text; worker ${s.mbPerSecond.toFixed(1)} MB/s; ${(s.bytes / 1e6 / cpuS).toFixed(1)} MB per server CPU second`

  try {
    const startup = readMemory(server.pid)!
    console.log(`server (${{ dist: 'JS build as npm start runs it', bin: 'JS build as `loupe serve`', tsx: 'TypeScript through tsx' }[RUN]}) pid ${server.pid}, listening with ${mb(startup.rssKb)} MB RSS, ${startup.threads} threads`)
    // The build's peak counts from the process's start (VmHWM is not reset), start-up included.
    await job('index build', async () => {
      const cpu0 = cpuSeconds(server.pid)
      const s = await untilReady()
      return buildNote(s, cpuSeconds(server.pid) - cpu0)
    }, { resetPeak: false })
    await job('clean-up plan, whole DB', async () => {
      const plan = await call<{ sessions: number; bytes?: number }>('storage.cleanPlan', { rule: { idleDays: 0 } })
      return `${plan.sessions} sessions`
    })
    await job('20 ranked searches', async () => {
      let hits = 0
      for (const q of ['error', 'timeout', 'auth token', 'build*', 'the', 'function', 'test', 'config', 'import', 'render']) {
        const first = await call<{ hits: unknown[]; cursor: string | null }>('history.search', { query: q })
        const second = first.cursor ? await call<{ hits: unknown[] }>('history.search', { query: q, cursor: first.cursor }) : { hits: [] }
        hits += first.hits.length + second.hits.length
      }
      return `${hits} hits`
    })
    await job('gallery, 10,000-message session', async () => {
      const pages = await walkGallery(call, bench.longSessionID)
      return `${pages.pages} pages, ${pages.images} images, ${(pages.bytes / 1e6).toFixed(0)} MB scanned`
    })
    if (imageSession) {
      await job('gallery + 256 px thumbnails', async () => {
        const walked = await walkGallery(call, imageSession)
        for (const target of walked.targets) {
          const res = await request(`${server.baseURL}/api/sessions/${imageSession}/images/${target}?size=256`, headers)
          if (res.status !== 200) throw new Error(`thumbnail ${target}: ${res.status}`)
        }
        return `${walked.targets.length} thumbnails`
      })
    }
    await job('storage doctor', async () => {
      for (;;) {
        const s = await call<{ state: string }>('storage.doctor', { refresh: false })
        if (s.state === 'done') return 'report'
        if (s.state === 'failed') throw new Error(JSON.stringify(s))
        await sleep(250)
      }
    })
    await job('compaction dry run', async () => {
      const a = await call<{ status: string; eventsRedacted: number; eventBytesBefore: number }>('storage.compact', { dryRun: true }, true)
      return `${a.status}, ${a.eventsRedacted} events, ${(a.eventBytesBefore / 1e6).toFixed(0)} MB of events`
    })
    await job('compaction apply', async () => {
      const a = await call<{ status: string; eventsRedacted: number; eventBytesAfter: number }>('storage.compact', { dryRun: false }, true)
      return `${a.status}, ${a.eventsRedacted} redacted, ${(a.eventBytesAfter / 1e6).toFixed(0)} MB left`
    })
    await job('reclaim', async () => {
      const started = await call<{ status: string }>('storage.reclaim', { confirm: 'reclaim', keepBackup: false }, true)
      if (started.status !== 'started') return `refused: ${JSON.stringify(started)}`
      for (;;) {
        const { state: s } = await call<{ state: { state: string; result?: { status: string; after: { db: number } } } }>('storage.reclaimStatus')
        if (s.state === 'finished') return `${s.result?.status}, ${((s.result?.after.db ?? 0) / 1e6).toFixed(0)} MB after`
        await sleep(250)
      }
    }, { settle: false })
    // Only after a reclaim: `--jobs build` would otherwise wait on an index that is already ready.
    if (rows.some((r) => r.job === 'reclaim')) await job('index rebuild after the swap', async () => {
      const cpu0 = cpuSeconds(server.pid)
      const s = await untilReady()
      return buildNote(s, cpuSeconds(server.pid) - cpu0)
    })
  } finally {
    sampler.stop()
    await server.stop()
    if (!args.includes('--keep')) fs.rmSync(work, { recursive: true, force: true })
  }
  printTable(rows)
  console.log(`Targets: build peak ≤ 300 MB, idle ≤ 150 MB, build ≥ 20 MB/s (worker). RSS is all threads; "file" is file-backed (SQLite's mmap of the sidecar, the binaries).`)
  console.log(`Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; load average before ${loadBefore.map((l) => l.toFixed(1)).join(' ')}, after ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}.`)
}

/** One request without a timeout; resolves with the status and the whole body. */
function request(url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(body)
  })
}

type Call = <T>(proc: string, input?: unknown) => Promise<T>
async function walkGallery(call: Call, sessionID: string) {
  let cursor: string | null | undefined
  const out = { pages: 0, images: 0, bytes: 0, targets: [] as string[] }
  do {
    const page = await call<{ status: string; cursor: string | null; entries: Array<{ kind: string; target: string; available?: boolean }>; scanned: { bytes: number } }>(
      'gallery.images', { sessionID, ...(cursor ? { cursor } : {}) })
    if (page.status !== 'page') break
    out.pages++
    out.bytes += page.scanned.bytes
    for (const e of page.entries) if (e.kind === 'image' && e.available) out.targets.push(e.target)
    cursor = page.cursor
  } while (cursor)
  out.images = out.targets.length
  return out
}

/** The session whose parts hold the most embedded images (the demo's image reviews). */
function sessionWithMostImages(file: string): string | null {
  const db = new Database(file, { readonly: true })
  try {
    const row = db.prepare(`SELECT session_id AS id FROM part WHERE data LIKE '%data:image/%' GROUP BY session_id ORDER BY count(*) DESC LIMIT 1`).get() as { id: string } | undefined
    return row?.id ?? null
  } finally {
    db.close()
  }
}

function printTable(rows: Row[]) {
  const head = ['job', 'peak MB', 'sampled peak', `${IDLE_S} s after`, `${SETTLE_S} s after`, 'anon / file', 'threads', 'wall s', 'CPU s', 'note']
  const body = rows.map((r) => [r.job, mb(r.memory.hwmKb), mb(r.memory.sampledPeakKb), mb(r.idleKb), r.settledKb === null ? '—' : mb(r.settledKb), `${mb(r.idleAnonKb)} / ${mb(r.idleFileKb)}`, String(r.threads), r.wallS.toFixed(1), r.cpuS.toFixed(1), r.note])
  console.log(markdownTable(head, body))
  // The same idle readings by where the memory is (bench/smaps-breakdown.ts).
  const partsHead = ['job', 'sum', 'files (node, libraries)', 'main arena ([heap])', 'thread arenas', 'V8 pages', 'other']
  const partsBody = rows.filter((r) => r.parts).map((r) => {
    const p = r.parts!
    return [r.job, mb(p.fileKb + p.mainHeapKb + p.arenasKb + p.v8Kb + p.otherKb), mb(p.fileKb), mb(p.mainHeapKb), mb(p.arenasKb), mb(p.v8Kb), mb(p.otherKb)]
  })
  if (partsBody.length) console.log(`\nWhere the last idle reading's RSS is, MB (smaps):${markdownTable(partsHead, partsBody)}`)
}

function markdownTable(head: string[], body: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  return `\n${line(head)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${body.map(line).join('\n')}`
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
