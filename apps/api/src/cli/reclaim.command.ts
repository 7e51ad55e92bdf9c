import fs from 'node:fs'
import { indexFileFor } from '../index/index-db.js'
import { systemClock } from '../lib/clock.js'
import { removeWithSidecars } from '../features/storage/reclaim-files.js'
import { createReclaimRunner } from '../features/storage/reclaim-runner.js'
import { runReclaim } from '../features/storage/reclaim.service.js'
import type { FileIdentity } from '../store/open-opencode.js'
import type { CliOptions } from './cli-args.js'
import { createProgress, EXIT, formatBytes, type CliIo, type CommandResult } from './cli-io.js'
import { createOpenCodeClient } from '../opencode/opencode-client.js'
import { openForCli } from './open-db.js'

/**
 * `loupe reclaim`: the same VACUUM INTO + verified swap as the Storage page. Refused (exit 2)
 * while any other process holds the file; OpenCode is never started or stopped. After a swap
 * the search sidecar of the old file is removed: Loupe builds a fresh one on its next start.
 */
export async function reclaimCommand(options: CliOptions, io: CliIo): Promise<CommandResult> {
  const opencode = openForCli(options.db)
  const progress = createProgress(io)
  let old: { path: string; identity: FileIdentity } | null = null
  let lastPhase: string | null = null
  try {
    const result = await runReclaim(
      {
        opencode,
        opencodeClient: createOpenCodeClient(options.opencode),
        clock: systemClock,
        runner: createReclaimRunner(),
        sidecar: {
          release: async () => {
            old = { path: opencode.path, identity: opencode.identity }
          },
          restart: (swapped) => {
            const index = old && indexFileFor(options.dataDir, old)
            if (swapped && index && fs.existsSync(index)) removeWithSidecars(index)
          },
        },
      },
      {
        keepBackup: options.keepBackup,
        onProgress: (phase, copyBytes, expected) => {
          // Every phase change is printed; within a phase, at most one line per 200 ms.
          progress(`reclaim: ${phase}${phase === 'copy' ? ` ${formatBytes(copyBytes)} of about ${formatBytes(expected)}` : ''}`, phase !== lastPhase)
          lastPhase = phase
        },
      },
    )
    const code = result.status === 'done' ? EXIT.done : result.status === 'refused' ? EXIT.refused : EXIT.error
    const text = result.status === 'done'
      ? `${formatBytes(result.before.db + result.before.wal)} → ${formatBytes(result.after.db + result.after.wal)}. ${result.message}\n`
      : `${result.status}: ${result.detail}\n`
    return { code, json: result, text }
  } finally {
    opencode.db.close()
  }
}
