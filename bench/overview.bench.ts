// The Overview page's reads on the shared bench database over HTTP: overview.usage (first call
// after opening, a second UTC offset, then kept answers for every range and grouping), and the two
// storage reads the page also shows (the doctor's report, a 30-day clean-up plan).
import { createTestDeps, startTestServer, TEST_TOKEN } from '@loupe/api/testing'
import { ensureBenchDb, fmt, measure } from './bench-db.js'

const bench = ensureBenchDb()
const deps = await createTestDeps(bench.file)
// The bench DB's clock: its newest sessions are from 2026-11-29.
const server = await startTestServer(deps)
const call = async (name: string, input?: unknown) => {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`
  const res = await fetch(`${server.url}/trpc/${name}${query}`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } })
  if (!res.ok) throw new Error(`${name}: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { result: { data: any } }).result.data
}
const once = async (label: string, fn: () => Promise<any>) => {
  const t0 = performance.now()
  const out = await fn()
  console.log(`${label.padEnd(58)}${(performance.now() - t0).toFixed(0).padStart(7)} ms`)
  return out
}

console.log(`database: ${bench.sessions} sessions, ${bench.messages} messages`)
const first = await once('overview.usage, first call after opening (reads every message)', () => call('overview.usage', { days: 365 }))
await once('overview.usage, a second UTC offset (reads them again)', () => call('overview.usage', { days: 365, tzOffsetMinutes: 60 }))
const a = first.agreement
console.log(`${first.totals.messages} assistant messages in 365 days, ${first.series.length} series; agreement: ${a.differing} of ${a.sessions} sessions differ (messages ${a.messageTokens} vs totals ${a.sessionTokens} tokens)`)
console.log(`${'kept answer'.padEnd(46)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'max ms'.padStart(8)}`)
for (const days of [30, 365, null]) {
  for (const [interval, groupBy] of [['day', 'model'], ['week', 'project']] as const) {
    const r = await measure(() => call('overview.usage', { days, interval, groupBy }), 20)
    console.log(`${`overview.usage ${days ?? 'all'} days, ${interval} by ${groupBy}`.padEnd(46)}${fmt(r.p50)}${fmt(r.p95)}${fmt(r.max)}`)
  }
}
for (let s = await call('storage.doctor', {}); s.state === 'running'; s = await call('storage.doctor', {})) await new Promise((r) => setTimeout(r, 200))
await once('storage.doctor cached report', () => call('storage.doctor', {}))
const plan = await once('storage.cleanPlan idle ≥ 30 days (the page\'s estimate)', () => call('storage.cleanPlan', { rule: { idleDays: 30 } }))
console.log(`clean-up estimate: ${plan.sessions} sessions, ${plan.parts} parts, ${(plan.bytes / 1e6).toFixed(0)} MB`)
await server.close()
deps.cleanup()
