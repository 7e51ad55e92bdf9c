// Storage benchmark (not a test): `node --import tsx bench/storage.bench.ts [--mb 100]`.
// On a copy of the real OpenCode fixture grown by one streamed snapshot chain to about --mb MB,
// with a quarter of it deleted again (free pages to give back), prints:
// - the storage doctor's scan time (in-process, worker thread) and the step's peak RSS;
// - reclaim (VACUUM INTO + verify + swap), with the backup kept (the default) and with the original
//   removed, against the sqlite3 CLI's own `VACUUM INTO` on the same file in the same run (target
//   <= 1.2x), and the in-place VACUUM it replaced (`--skip-vacuum` leaves that out).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { copyDb, realFixture, tempDir } from '../apps/api/test/harness.js'
import { bloatDb, dropSnapshots } from '../apps/api/src/features/storage/testing/bloat-db.js'

const mbArg = process.argv.indexOf('--mb')
const targetMb = mbArg > 0 ? Number(process.argv[mbArg + 1]) : 100
const RUNS = 3
const SKIP_VACUUM = process.argv.includes('--skip-vacuum')
const line = (text: string) => process.stdout.write(text + '\n')
const here = path.dirname(new URL(import.meta.url).pathname)

const dir = tempDir('loupe-storage-bench-')
try {
  const source = copyDb((await realFixture()).db, path.join(dir))
  // A chain of n snapshots of step bytes each holds step * n(n+1)/2 bytes.
  const step = 2500
  const snapshots = Math.ceil(Math.sqrt((2 * targetMb * 1e6) / step))
  bloatDb(source, { snapshots, stepBytes: step })
  dropSnapshots(source, Math.floor(snapshots * 0.13))
  const size = fs.statSync(source).size
  line(`database: ${(size / 1e6).toFixed(1)} MB (${snapshots} snapshots of one part, the newest ${Math.floor(snapshots * 0.13)} deleted again)`)

  const run = (stepName: string, file: string) => {
    const out = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'storage-step.ts'), stepName, file], { encoding: 'utf8' })
    if (out.status !== 0) throw new Error(`${stepName} failed: ${out.stderr}`)
    return JSON.parse(out.stdout.trim().split('\n').at(-1) ?? '{}') as { ms: number; cpuMs: number; maxRssKb: number; detail: unknown }
  }
  const sqliteVacuumInto = (file: string) => {
    const target = `${file}.cli-copy`
    const t0 = performance.now()
    const out = spawnSync('/usr/bin/time', ['-f', '%M %U %S', 'sqlite3', file, `VACUUM INTO '${target}'`], { encoding: 'utf8' })
    const ms = performance.now() - t0
    if (out.status !== 0) throw new Error(`sqlite3 failed: ${out.stderr}`)
    fs.rmSync(target, { force: true })
    const [rss, user, sys] = out.stderr.trim().split('\n').at(-1)!.split(' ').map(Number)
    return { ms, cpuMs: (user! + sys!) * 1000, maxRssKb: rss! }
  }
  const fresh = (name: string) => {
    const file = path.join(dir, name, 'opencode.db')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.copyFileSync(source, file)
    return file
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
  const results = Object.fromEntries(['doctor', 'scan', 'reclaim', 'reclaim-remove', 'sqlite3', 'vacuum'].map((k) => [k, { ms: [] as number[], cpu: [] as number[], rss: [] as number[] }]))
  let after = 0
  for (let i = 0; i < RUNS; i++) {
    const d = run('doctor', source)
    results.doctor!.ms.push(d.ms)
    results.doctor!.cpu.push(d.cpuMs)
    results.doctor!.rss.push(d.maxRssKb)
    results.scan!.ms.push((d.detail as { scanMs: number }).scanMs)
    results.scan!.rss.push(d.maxRssKb)
    // Alternate the order so neither side always gets the warmer page cache.
    const order = ['reclaim', 'sqlite3', 'reclaim-remove'] as const
    for (const which of i % 2 === 0 ? order : [...order].reverse()) {
      const file = fresh(`${which}-${i}`)
      const r = which === 'sqlite3' ? sqliteVacuumInto(file) : run(which, file)
      results[which]!.ms.push(r.ms)
      results[which]!.cpu.push(r.cpuMs)
      results[which]!.rss.push(r.maxRssKb)
      if (which === 'reclaim') after = fs.statSync(file).size
      fs.rmSync(path.dirname(file), { recursive: true, force: true })
    }
    if (SKIP_VACUUM) continue
    const file = fresh(`vacuum-${i}`)
    const v = run('vacuum', file)
    results.vacuum!.ms.push(v.ms)
    results.vacuum!.cpu.push(v.cpuMs)
    results.vacuum!.rss.push(v.maxRssKb)
    fs.rmSync(path.dirname(file), { recursive: true, force: true })
  }
  const cpuOf = (key: string) => (results[key]!.cpu.length ? `  CPU ${median(results[key]!.cpu).toFixed(0).padStart(6)} ms` : '')
  const show = (label: string, key: string) => line(`${label.padEnd(52)} median ${median(results[key]!.ms).toFixed(0).padStart(6)} ms${cpuOf(key)}   peak RSS ${(Math.max(...results[key]!.rss) / 1024).toFixed(0).padStart(4)} MB   (runs: ${results[key]!.ms.map((m) => m.toFixed(0)).join(', ')})`)
  show('doctor (whole report, worker start included)', 'doctor')
  show('doctor scan alone (inside the worker)', 'scan')
  show('reclaim: VACUUM INTO + verify + swap, backup kept', 'reclaim')
  show('reclaim, the original removed after the swap', 'reclaim-remove')
  show('sqlite3 CLI VACUUM INTO (same file)', 'sqlite3')
  if (!SKIP_VACUUM) show('in-place VACUUM + checkpoint (old path)', 'vacuum')
  line(`reclaim / sqlite3 VACUUM INTO: ${(median(results.reclaim!.ms) / median(results.sqlite3!.ms)).toFixed(2)}x with the backup kept, ${(median(results['reclaim-remove']!.ms) / median(results.sqlite3!.ms)).toFixed(2)}x removing the original (target <= 1.2x)`)
  line(`file after reclaim: ${(after / 1e6).toFixed(1)} MB of ${(size / 1e6).toFixed(1)} MB`)
  line(`load average after the runs: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`)
  line(`doctor throughput: ${((size / 1e6) / (median(results.doctor!.ms) / 1000)).toFixed(0)} MB/s of file with start-up, ${((size / 1e6) / (Math.max(1, median(results.scan!.ms)) / 1000)).toFixed(0)} MB/s for the scan`)
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
