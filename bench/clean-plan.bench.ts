// Retention clean-up plan benchmark (not a test): `node --import tsx bench/clean-plan.bench.ts [db]`.
// On a copy of the shared bench database (bench/out/bench-300000.db, or the file given), with the
// clock a year after its newest activity so every session is idle, prints the time of
// `storage.cleanPlan` without and with a size rule, and its totals (same totals = same plan).
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
    const t0 = performance.now()
    const plan = await planClean(deps, rule)
    const ms = performance.now() - t0
    line(`${JSON.stringify(rule).padEnd(36)} ${ms.toFixed(0).padStart(7)} ms   sessions ${plan.sessions}  parts ${plan.parts}  bytes ${plan.bytes}  tokens ${plan.tokens}  skipped ${plan.skipped.length}  fingerprint ${plan.fingerprint.slice(0, 16)}`)
  }
} finally {
  deps.cleanup()
}
