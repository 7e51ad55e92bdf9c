// Snippet benchmark (not a test): `node --import tsx bench/snippet.bench.ts [--runs 5]`.
// A copy of the real OpenCode fixture plus one session of tool outputs that hold the query word
// 2,500 to 40,000 times (one line each, so longer than JS scans and left to the index). For each it
// prints history.search in process (the bounded window snippets of window-snippets.ts), against
// FTS5's own snippet() over the whole document (the path a search took before), wall and CPU time
// (user + sys), with the load average beside them.
import Database from 'better-sqlite3'
import fs from 'node:fs'
import os from 'node:os'
import { addV1Message, addV1Session, toolPart } from '../apps/api/test/search-fixtures.js'
import { copyDb, createCaller, createTestDeps, realFixture, tempDir } from '../apps/api/test/harness.js'

const runsArg = process.argv.indexOf('--runs')
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5
const COUNTS = [2500, 5000, 10_000, 20_000, 40_000]
const line = (text: string) => process.stdout.write(text + '\n')
const load = () => os.loadavg()[0]!.toFixed(1)

/** Median wall and CPU milliseconds of `fn` over `runs` calls. */
async function time(runs: number, fn: () => unknown): Promise<{ wall: number; cpu: number }> {
  const walls: number[] = []
  const cpus: number[] = []
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await fn()
    walls.push(performance.now() - t0)
    const c = process.cpuUsage(c0)
    cpus.push((c.user + c.system) / 1000)
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  return { wall: median(walls), cpu: median(cpus) }
}

const dir = tempDir('loupe-snippet-bench-')
const file = copyDb((await realFixture()).db, dir)
const raw = new Database(file)
const now = Date.now() - 60_000
const session = addV1Session(raw, { title: 'noisy logs', time: now })
const parts = new Map<number, string>()
for (const n of COUNTS) {
  const output = Array.from({ length: n }, (_, i) => `line ${i}: zebra${n} failed`).join('\n')
  parts.set(n, addV1Message(raw, { sessionID: session, role: 'assistant', time: now + n, parts: [toolPart('bash', { command: `run ${n}` }, output)] }).partIDs[0]!)
}
raw.close()

const deps = await createTestDeps(file)
try {
  deps.searchIndex.runUntilIdle()
  const caller = createCaller({ deps })
  const index = deps.searchIndex.db!
  line(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; median of ${RUNS} runs (whole-document snippet(): 1 run past 10,000)`)
  line('matches | chars | search (bounded snippets) wall / CPU | FTS5 snippet() of the whole document wall / CPU | load')
  for (const n of COUNTS) {
    const query = `zebra${n}`
    const chars = index.getSql<{ n: number }>(`SELECT length(f.output) AS n FROM fts f JOIN doc d ON d.id = f.rowid WHERE d.part_key = ?`, [parts.get(n)])!.n
    const bounded = await time(RUNS, async () => {
      const answer = await caller.history.search({ query })
      if (!answer.hits.some((h) => h.snippet.some((s) => s.match))) throw new Error(`no marked hit for ${query}`)
    })
    const whole = await time(n > 10_000 ? 1 : RUNS, () =>
      index.allSql(`SELECT snippet(fts, -1, char(57344), char(57345), '…', 24) FROM fts WHERE fts MATCH ?`, [`{title body tool input output}: "${query}"`]))
    const f = (t: { wall: number; cpu: number }) => `${t.wall.toFixed(1)} / ${t.cpu.toFixed(1)} ms`
    line(`${n} | ${chars} | ${f(bounded)} | ${f(whole)} | ${load()}`)
  }
} finally {
  deps.cleanup()
  fs.rmSync(dir, { recursive: true, force: true })
}
