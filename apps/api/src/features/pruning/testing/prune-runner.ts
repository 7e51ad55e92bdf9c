// A separate Loupe process for fault tests: `node --import tsx prune-runner.ts <db> <loupe-dir>`.
// Reads one JSON command per stdin line and answers one JSON line per result on stdout:
//   {"op":"prune", "input": PruneInput}        -> the prune result
//   {"op":"batch", "sessionID", "candidates"}  -> one line per slice of 16 (as the UI runs a session cleanup)
import { randomBytes } from 'node:crypto'
import readline from 'node:readline'
import { fixedClock } from '../../../lib/clock.js'
import { createEventBus } from '../../../lib/event-bus.js'
import { openLoupeDb } from '../../../loupe-db/loupe-db.js'
import { openOpenCode } from '../../../store/open-opencode.js'
import type { AppDeps } from '../../../deps.js'
import { createPruningRuntime } from '../pruning-runtime.js'
import { pruneBatch, pruneMessage } from '../pruning.service.js'

const [dbPath, loupeDir] = process.argv.slice(2)
if (!dbPath || !loupeDir) throw new Error('usage: prune-runner.ts <db> <loupe-dir>')

const deps: AppDeps = {
  config: {
    host: '127.0.0.1', port: 0, token: 'x', dataDir: loupeDir, opencodeUrl: null, opencodePassword: null,
    allowedHostNames: [], lanAddresses: [], webRoot: null, demo: false,
  },
  opencode: openOpenCode(dbPath),
  loupeDb: await openLoupeDb(loupeDir),
  clock: fixedClock(Date.UTC(2026, 10, 29, 12)),
  events: createEventBus(),
  pruning: createPruningRuntime(),
  randomBytes,
}
const say = (value: unknown) => process.stdout.write(JSON.stringify(value) + '\n')
say({ ready: true, pid: process.pid })

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue
  const command = JSON.parse(line) as { op: string; input?: never; sessionID?: string; candidates?: Array<{ messageID: string; revision: string }> }
  if (command.op === 'prune') say({ result: await pruneMessage(deps, command.input!) })
  if (command.op === 'batch') {
    const all = command.candidates ?? []
    for (let i = 0; i < all.length; i += 16) {
      say({ batch: i / 16, ...(await pruneBatch(deps, { sessionID: command.sessionID!, candidates: all.slice(i, i + 16) })) })
    }
    say({ done: true })
  }
}
