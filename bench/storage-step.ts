// One measured step of storage.bench.ts in its own process, so its peak RSS is its own:
// `node --import tsx storage-step.ts doctor|reclaim|reclaim-remove|vacuum <db>`; prints one JSON line.
// `reclaim` keeps the original as a backup (the product's default); `reclaim-remove` removes it.
import Database from 'better-sqlite3'
import { createDoctorRuntime, runDoctor } from '../apps/api/src/features/storage/doctor.service.js'
import { createReclaimRunner } from '../apps/api/src/features/storage/reclaim-runner.js'
import { createOpenCodeClient } from '../apps/api/src/opencode/opencode-client.js'
import { runReclaim } from '../apps/api/src/features/storage/reclaim.service.js'
import { systemClock } from '../apps/api/src/lib/clock.js'
import { openOpenCode } from '../apps/api/src/store/open-opencode.js'

const [step, file] = process.argv.slice(2)
if (!file) throw new Error('usage: storage-step.ts doctor|reclaim|reclaim-remove|vacuum <db>')
const t0 = performance.now()
const cpu0 = process.cpuUsage()
let detail: unknown = null
if (step === 'vacuum') {
  // The path reclaim replaced: in-place VACUUM, then a TRUNCATE checkpoint.
  const db = new Database(file)
  db.exec('VACUUM')
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
} else {
  const opencode = openOpenCode(file)
  if (step === 'doctor') {
    const report = await runDoctor({ opencode, doctor: createDoctorRuntime() })
    detail = { scanMs: report.tookMs, events: report.events, tables: report.tables.event }
  } else {
    const result = await runReclaim(
      { opencode, opencodeClient: createOpenCodeClient({ url: null, username: null, password: null }), clock: systemClock, runner: createReclaimRunner(), sidecar: { release: async () => {}, restart: () => {} } },
      { keepBackup: step === 'reclaim' },
    )
    detail = { status: result.status, before: result.before, after: result.after }
  }
  opencode.db.close()
}
const ms = performance.now() - t0
// User + sys of every thread of this process (the copy's and the doctor's workers included), from the step's start.
const cpu = process.cpuUsage(cpu0)
process.stdout.write(JSON.stringify({ step, ms, cpuMs: (cpu.user + cpu.system) / 1000, maxRssKb: process.resourceUsage().maxRSS, detail }) + '\n')
