// A separate Loupe process for fault tests: `node --import tsx prune-runner.ts <db>`.
// Reads one JSON command per stdin line and answers one JSON line per result on stdout:
//   {"op":"prune", "input": PruneInput}        -> the prune result
//   {"op":"batch", "sessionID", "candidates"}  -> one line per slice of 16 (as the UI runs a session cleanup)
import readline from 'node:readline'
import { createTestDeps } from '../../../../test/harness.js'
import { pruneBatch, pruneMessage } from '../pruning.service.js'

const [dbPath] = process.argv.slice(2)
if (!dbPath) throw new Error('usage: prune-runner.ts <db>')

const deps = await createTestDeps(dbPath, {}, { copy: false })
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
