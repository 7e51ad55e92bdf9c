// Synthetic OpenCode 1.18.33 database for benchmarks, from Loupe's demo generator.
//   node --import tsx bench/generate-db.ts --out FILE [--parts 300000] [--seed N] [--now MS] [--no-events]
// Prints what was written and how fast. Not part of `npm test`.
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { generateDemoDb } from '@loupe/demo'

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    parts: { type: 'string', default: '300000' },
    seed: { type: 'string', default: '1' },
    now: { type: 'string' },
    'no-events': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
})

const usage = 'usage: node --import tsx bench/generate-db.ts --out FILE [--parts 300000] [--seed N] [--now EPOCH_MS] [--no-events]'
if (values.help || !values.out) {
  console.error(usage)
  process.exit(values.help ? 0 : 2)
}
const parts = Number(values.parts)
const seed = Number(values.seed)
const now = values.now ? Number(values.now) : Date.now()
if (!Number.isInteger(parts) || parts < 1 || !Number.isInteger(seed) || !Number.isFinite(now)) {
  console.error(`--parts and --seed must be positive integers, --now epoch ms\n${usage}`)
  process.exit(2)
}

const out = path.resolve(values.out)
fs.mkdirSync(path.dirname(out), { recursive: true })
const cpu0 = process.cpuUsage()
const t0 = performance.now()
const made = generateDemoDb(out, { now, seed, targetParts: parts, events: !values['no-events'] })
const seconds = (performance.now() - t0) / 1000
const cpu = process.cpuUsage(cpu0)
const mb = made.bytes / 1e6

console.log(`file      ${out}`)
console.log(`sessions  ${made.sessions}`)
console.log(`messages  ${made.messages}`)
console.log(`parts     ${made.parts}`)
console.log(`events    ${made.events}`)
console.log(`size      ${mb.toFixed(1)} MB`)
console.log(`time      ${seconds.toFixed(1)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU (${(cpu.user / 1e6).toFixed(1)} user + ${(cpu.system / 1e6).toFixed(1)} sys)`)
console.log(`rate      ${(mb / seconds).toFixed(1)} MB/s, ${Math.round(made.parts / seconds)} parts/s`)
