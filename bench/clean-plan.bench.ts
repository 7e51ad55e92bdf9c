// Retention clean-up plan benchmark (not a test): `node --import tsx bench/clean-plan.bench.ts [db]`.
// On a copy of the shared bench database (bench/out/bench-300000.db, or the file given), with the
// clock a year after its newest activity so every session is idle, prints the time of
// `storage.cleanPlan` without and with a size rule, and its totals (same totals = same plan). Each
// rule runs twice: the second plan is the one apply makes (token estimates remembered). Wall and CPU
// time are printed side by side (the VM is shared), then the process's peak RSS (VmHWM).
import fs from 'node:fs'
import { createTestDeps } from '../apps/api/test/harness.js'
import { fixedClock } from '../apps/api/src/lib/clock.js'
import { planClean } from '../apps/api/src/features/storage/clean-plan.service.js'
import { ensureBenchDb } from './bench-db.js'

const file = process.argv[2] ?? ensureBenchDb().file
// `copy: false`: the bench works on the file given (pass a private copy); planning only reads.
const deps = await createTestDeps(file, {}, { copy: false })
const line = (text: string) => process.stdout.write(text + '\n')
try {
  const newest = deps.opencode.db.getSql<{ t: number }>(`SELECT max(time_updated) AS t FROM session`)?.t ?? 0
  deps.clock = fixedClock(newest + 365 * 24 * 60 * 60 * 1000)
  for (const rule of [{ idleDays: 30 }, { idleDays: 30, minToolOutputKB: 4 }]) {
    deps.pruning.tokens.counts.clear()
    for (const run of ['first', 'again']) {
      const t0 = performance.now()
      const c0 = process.cpuUsage()
      const plan = await planClean(deps, rule)
      const ms = performance.now() - t0
      const cpu = process.cpuUsage(c0)
      const cpuMs = (cpu.user + cpu.system) / 1000
      line(`${JSON.stringify(rule).padEnd(36)} ${run.padEnd(5)} ${ms.toFixed(0).padStart(7)} ms wall ${cpuMs.toFixed(0).padStart(7)} ms CPU   sessions ${plan.sessions}  parts ${plan.parts}  bytes ${plan.bytes}  tokens ${plan.tokens}  skipped ${plan.skipped.length}  fingerprint ${plan.fingerprint.slice(0, 16)}`)
    }
  }
  const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]
  line(`peak RSS (VmHWM) ${hwm ? (Number(hwm) / 1024).toFixed(0) : '?'} MB`)
} finally {
  deps.cleanup()
}
