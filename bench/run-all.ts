// `npm run bench`: run every bench/*.bench.ts one after another; each prints its own numbers.
// Benchmarks never assert times and are never part of `npm test`.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const only = process.argv.slice(2)
const files = fs.readdirSync(here).filter((f) => f.endsWith('.bench.ts')).filter((f) => only.length === 0 || only.some((o) => f.includes(o))).sort()
if (files.length === 0) {
  console.error(`no benchmarks${only.length ? ` matching ${only.join(', ')}` : ''} in ${here}`)
  process.exit(1)
}
let failed = 0
for (const file of files) {
  console.log(`\n=== ${file} ===`)
  const started = Date.now()
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file)], { stdio: 'inherit', cwd: here })
  console.log(`=== ${file}: ${result.status === 0 ? 'done' : `exit ${result.status}`} in ${((Date.now() - started) / 1000).toFixed(1)} s ===`)
  if (result.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
