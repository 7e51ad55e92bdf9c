// Start-up of the `loupe` bin as a new process each time, the JavaScript build (LOUPE_RUN=dist,
// plain node) against the TypeScript source through tsx (LOUPE_RUN=source): `loupe sessions --json`
// until it exits, and `loupe mcp` until it answers `initialize`. Alternating runs on the small
// bench database (20,000 parts); the file cache is warm after the first run of each. Prints numbers.
// Flags: --runs N (default 10).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureBenchDb, fmt } from './bench-db.js'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const BIN = path.join(repo, 'apps/api/bin/loupe.mjs')
const runsAt = process.argv.indexOf('--runs')
const RUNS = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 10

const built = spawnSync(process.execPath, ['scripts/build-js.mjs'], { cwd: path.join(repo, 'apps/api'), stdio: 'inherit' })
if (built.status !== 0) process.exit(1)
const bench = ensureBenchDb(20_000)
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-bench-'))
const env = (run: string) => ({ PATH: process.env.PATH ?? '', HOME: dir, XDG_DATA_HOME: path.join(dir, 'xdg'), LOUPE_RUN: run })

function sessions(run: string): Promise<number> {
  const t0 = performance.now()
  const child = spawn(process.execPath, [BIN, 'sessions', '--json', '--db', bench.file], { env: env(run), stdio: ['ignore', 'ignore', 'inherit'] })
  return new Promise((resolve, reject) => child.on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`sessions exit ${code}`)))))
}

function mcpInitialize(run: string): Promise<number> {
  const t0 = performance.now()
  const child = spawn(process.execPath, [BIN, 'mcp', '--db', bench.file, '--data-dir', path.join(dir, `loupe-${run}`)], { env: env(run), stdio: ['pipe', 'pipe', 'ignore'] })
  let out = ''
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      if (!out.includes('"id":1')) return
      const ms = performance.now() - t0
      child.stdin.end()
      child.once('close', () => resolve(ms))
    })
    child.once('error', reject)
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } } })}\n`)
  })
}

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b)
  return { p50: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! }
}
const cases = [['sessions --json', sessions], ['mcp (initialize answered)', mcpInitialize]] as const
console.log(`bin start-up, ${RUNS} runs each, ${bench.sessions.toLocaleString()} sessions, ${os.loadavg()[0]!.toFixed(1)} load`)
console.log(`${'command'.padEnd(28)} ${'build'.padEnd(8)} ${'p50 ms'.padStart(8)} ${'min'.padStart(8)} ${'max'.padStart(8)}`)
for (const [name, fn] of cases) {
  const times: Record<string, number[]> = { dist: [], source: [] }
  await fn('dist')
  await fn('source')
  for (let i = 0; i < RUNS; i++) for (const run of ['dist', 'source']) times[run]!.push(await fn(run))
  for (const run of ['dist', 'source']) {
    const s = stats(times[run]!)
    console.log(`${name.padEnd(28)} ${(run === 'dist' ? 'JS' : 'tsx').padEnd(8)} ${fmt(s.p50)} ${fmt(s.min)} ${fmt(s.max)}`)
  }
}
fs.rmSync(dir, { recursive: true, force: true })
