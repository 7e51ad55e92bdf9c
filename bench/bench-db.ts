// The shared benchmark database: Loupe's demo generator at ≥ 300,000 parts (realistic size spread,
// full event log) plus one 10,000-message session, built once and cached under bench/out/.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { generateDemoDb } from '@loupe/demo'
import { addLongSession } from '../e2e/support/long-session.js'

const here = path.dirname(fileURLToPath(import.meta.url))
export const BENCH_OUT = path.join(here, 'out')
export const LONG_TITLE = 'Long session (10,000 messages)'
const NOW = Date.UTC(2026, 10, 29, 12)

export interface BenchDb {
  file: string
  parts: number
  messages: number
  sessions: number
  longSessionID: string
}

/** Build (or reuse) bench/out/bench-<parts>.db; pass `fresh` for a private copy you may write to. */
export function ensureBenchDb(targetParts = 300_000): BenchDb {
  fs.mkdirSync(BENCH_OUT, { recursive: true })
  const file = path.join(BENCH_OUT, `bench-${targetParts}.db`)
  const meta = `${file}.json`
  // The file named here, not the one recorded: a copied bench/out/ keeps the path it was built at.
  if (fs.existsSync(file) && fs.existsSync(meta)) return { ...(JSON.parse(fs.readFileSync(meta, 'utf8')) as BenchDb), file }
  fs.rmSync(file, { force: true })
  const t0 = performance.now()
  console.error(`[bench] generating ${targetParts.toLocaleString()} parts into ${file} (about a minute)…`)
  const made = generateDemoDb(file, { now: NOW, seed: 7, targetParts })
  const source = new Database(file, { readonly: true })
  const sourceTitle = (source.prepare(
    `SELECT s.title FROM session s JOIN message m ON m.session_id = s.id WHERE s.parent_id IS NULL GROUP BY s.id ORDER BY count(*) DESC LIMIT 1`,
  ).get() as { title: string }).title
  source.close()
  const long = addLongSession(file, { sourceTitle, messages: 10_000, title: LONG_TITLE })
  const db: BenchDb = { file, parts: made.parts, messages: made.messages + long.messages, sessions: made.sessions + 1, longSessionID: long.id }
  fs.writeFileSync(meta, JSON.stringify(db, null, 2))
  console.error(`[bench] ready in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${made.parts} parts, ${db.messages} messages`)
  return db
}

/** A private copy of the bench database (with sidecars) in `dir`. */
export function copyBenchDb(db: BenchDb, dir: string): string {
  fs.mkdirSync(dir, { recursive: true })
  const target = path.join(dir, 'opencode.db')
  for (const suffix of ['', '-wal', '-shm']) if (fs.existsSync(db.file + suffix)) fs.copyFileSync(db.file + suffix, target + suffix)
  return target
}

/** p50/p95/max of `runs` timed calls (ms), after `warmup` untimed ones. */
export async function measure(fn: () => unknown, runs = 30, warmup = 3) {
  for (let i = 0; i < warmup; i++) await fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await fn()
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!
  return { p50: at(0.5), p95: at(0.95), max: times.at(-1)! }
}

export const fmt = (ms: number) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(1)).padStart(8)

/** A tRPC query over HTTP as the web client sends it (GET, JSON input), answering `result.data`. */
export const trpcQuery = (url: string, token: string) => async (name: string, input?: unknown) => {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`
  const res = await fetch(`${url}/trpc/${name}${query}`, { headers: { authorization: `Bearer ${token}` } })
  if (!res.ok) throw new Error(`${name}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { result: { data: any } }).result.data
}
