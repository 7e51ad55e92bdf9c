// The Overview page's reads on the shared bench database over HTTP: overview.usage (first call
// after opening, a second UTC offset, then kept answers for every range and grouping), and the two
// storage reads the page also shows (the doctor's report, a 30-day clean-up plan).
import os from 'node:os'
import Database from 'better-sqlite3'
import { createTestDeps, startTestServer, TEST_TOKEN } from '@loupe/api/testing'
import { ensureBenchDb, fmt, measure, trpcQuery } from './bench-db.js'

const bench = ensureBenchDb()
const deps = await createTestDeps(bench.file)
const server = await startTestServer(deps)
const call = trpcQuery(server.url, TEST_TOKEN)
// The server runs in this process, so its CPU time is this process's: on a shared machine wall time
// waits for a core, CPU time does not.
const once = async (label: string, fn: () => Promise<any>) => {
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const out = await fn()
  const cpu = process.cpuUsage(cpu0)
  console.log(`${label.padEnd(64)}${(performance.now() - t0).toFixed(0).padStart(7)} ms${((cpu.user + cpu.system) / 1000).toFixed(0).padStart(7)} ms CPU`)
  return out
}

console.log(`database: ${bench.sessions} sessions, ${bench.messages} messages; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`)
const first = await once('overview.usage, first call after opening (reads every message)', () => call('overview.usage', { days: 365 }))
await once('overview.usage, a second UTC offset (summed from the kept minutes)', () => call('overview.usage', { days: 365, tzOffsetMinutes: 60 }))
await once('overview.usage, a half-hour offset (summed from the kept minutes)', () => call('overview.usage', { days: 365, tzOffsetMinutes: 330 }))
const a = first.agreement
console.log(`${first.totals.messages} assistant messages in 365 days, ${first.series.length} series; agreement: ${a.differing} of ${a.sessions} sessions differ (messages ${a.messageTokens} vs totals ${a.sessionTokens} tokens)`)
console.log(`${'kept answer'.padEnd(46)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'max ms'.padStart(8)}`)
for (const days of [30, 365, null]) {
  for (const [interval, groupBy] of [['day', 'model'], ['week', 'project']] as const) {
    const r = await measure(() => call('overview.usage', { days, interval, groupBy }), 20)
    console.log(`${`overview.usage ${days ?? 'all'} days, ${interval} by ${groupBy}`.padEnd(46)}${fmt(r.p50)}${fmt(r.p95)}${fmt(r.max)}`)
  }
}
// OpenCode writing to one session (its seq moves): only that session's messages are read again.
const writer = new Database(deps.opencode.path)
const bump = writer.prepare(`UPDATE event_sequence SET seq = seq + 1 WHERE aggregate_id = ?`)
const after = await measure(() => {
  bump.run(bench.longSessionID)
  return call('overview.usage', { days: 30 })
}, 10)
writer.close()
console.log(`${'after another connection wrote one session'.padEnd(46)}${fmt(after.p50)}${fmt(after.p95)}${fmt(after.max)}`)
for (let s = await call('storage.doctor', {}); s.state === 'running'; s = await call('storage.doctor', {})) await new Promise((r) => setTimeout(r, 200))
await once('storage.doctor cached report', () => call('storage.doctor', {}))
// The 30-day clean-up estimate (storage.cleanPlan) plans every idle session: minutes on this file, so the
// page asks for it only on a click past 256 MB; `--clean-plan` times it too.
if (process.argv.includes('--clean-plan')) {
  const plan = await once('storage.cleanPlan idle ≥ 30 days', () => call('storage.cleanPlan', { rule: { idleDays: 30 } }))
  console.log(`clean-up estimate: ${plan.sessions} sessions, ${plan.parts} parts, ${(plan.bytes / 1e6).toFixed(0)} MB`)
}
await server.close()
deps.cleanup()
