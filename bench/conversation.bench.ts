// The Images conversation lookup (`conversation.find`) on a large 1.x database: many sessions
// across many directories, one directory past the 20,000-root scan. Prints p50/p95; asserts nothing.
//
//   node --import tsx bench/conversation.bench.ts [sessions=200000]
import Database from 'better-sqlite3'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createCaller, createTestDeps } from '@loupe/api/testing'

const TOTAL = Number(process.argv[2] ?? 200_000)
const DIRECTORIES = 400
/** One directory past the scan limit, when the database is large enough to hold it. */
const HEAVY = TOTAL >= 50_000 ? 25_000 : 0
const schema = fs.readFileSync(new URL('../tools/opencode-schema/opencode-1.18.33-schema.sql', import.meta.url), 'utf8')

function build(file: string) {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.exec(schema)
  const project = db.prepare(`INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, 'git', 1, 1, '[]')`)
  const session = db.prepare(
    `INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, metadata, summary_diffs, time_created, time_updated)
     VALUES (?, ?, ?, 's', ?, 'A session title of ordinary length', '1.18.33', ?, ?, ?, ?)`,
  )
  const diffs = JSON.stringify([{ file: 'src/index.ts', before: 'x'.repeat(400), after: 'y'.repeat(400), additions: 3, deletions: 1 }])
  db.transaction(() => {
    for (let d = 0; d < DIRECTORIES; d++) project.run(`prj_${d}`, `/srv/p${d}`)
    project.run('prj_heavy', '/srv/heavy')
    let n = 0
    const add = (dir: string, prj: string, marked: boolean, child: boolean) => {
      const id = `ses_${String(n++).padStart(10, '0')}`
      session.run(id, prj, child ? 'ses_0000000000' : null, dir, marked ? '{"codenomad.companion":"images"}' : null, diffs, 1_000_000 + n, 1_000_000 + n)
    }
    for (let i = 0; i < TOTAL - HEAVY; i++) {
      const d = i % DIRECTORIES
      add(`/srv/p${d}`, `prj_${d}`, i >= DIRECTORIES && i < 2 * DIRECTORIES, i % 5 === 0)
    }
    for (let i = 0; i < HEAVY; i++) add('/srv/heavy', 'prj_heavy', false, false)
  })()
  db.close()
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function time(label: string, runs: number, fn: () => Promise<unknown>) {
  const ms: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    ms.push(performance.now() - t0)
  }
  ms.sort((a, b) => a - b)
  console.log(`${label.padEnd(48)} p50 ${percentile(ms, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(ms, 95).toFixed(1).padStart(7)} ms   (${runs} runs)`)
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bench-convo-'))
try {
  const file = path.join(dir, 'opencode.db')
  const t0 = performance.now()
  build(file)
  console.log(`built ${TOTAL.toLocaleString('en')} sessions in ${DIRECTORIES} directories${HEAVY ? ` + 1 with ${HEAVY.toLocaleString('en')} roots` : ''}: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${(fs.statSync(file).size / 1e6).toFixed(0)} MB`)
  const deps = await createTestDeps(file)
  const caller = createCaller({ deps })
  const answer = await caller.conversation.find({ directory: `/srv/p${DIRECTORIES - 1}` })
  console.log(`find /srv/p${DIRECTORIES - 1} → ${answer.status}`)
  await time(`find: a directory with ${Math.round((TOTAL - HEAVY) / DIRECTORIES)} sessions`, 30, () => caller.conversation.find({ directory: `/srv/p${Math.floor(Math.random() * DIRECTORIES)}` }))
  if (HEAVY) {
    console.log(`find /srv/heavy → ${(await caller.conversation.find({ directory: '/srv/heavy' })).status}`)
    await time(`find: a directory past the 20,000-root scan`, 10, () => caller.conversation.find({ directory: '/srv/heavy' }))
  }
  await time('find: a directory Loupe does not know (refused)', 30, () => caller.conversation.find({ directory: '/srv/nowhere' }).catch(() => null))
  deps.cleanup()
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
