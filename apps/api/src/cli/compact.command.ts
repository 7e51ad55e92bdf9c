import { compactEventLog, type CompactAnswer } from '../features/storage/compact.service.js'
import { createCliAppDeps } from './cli-app-deps.js'
import type { CliOptions } from './cli-args.js'
import { createProgress, EXIT, formatBytes, type CliIo, type CommandResult } from './cli-io.js'
import { openForCli } from './open-db.js'

function describe(a: CompactAnswer): string {
  const verb = a.dryRun ? 'would be redacted' : 'redacted'
  const lines = [
    `${a.eventsRedacted} superseded snapshots in ${a.sessions} sessions ${verb}: event log ${formatBytes(a.eventBytesBefore)} → ${formatBytes(a.eventBytesAfter)}`,
    ...a.refused.slice(0, 20).map((r) => `  refused ${r.sessionID}: ${r.reason}`),
    ...(a.detail ? [a.detail] : []),
    ...a.notes,
    a.dryRun && a.eventsRedacted > 0 ? 'To write it, run the same command with --apply; then `loupe reclaim` gives the bytes back.' : '',
  ]
  return lines.filter(Boolean).join('\n') + '\n'
}

/**
 * `loupe compact`: event-log compaction through the same service as the Storage page, a dry run
 * unless `--apply`; every write batch asks the live guard first, as the server does.
 */
export async function compactCommand(options: CliOptions, io: CliIo): Promise<CommandResult> {
  const opencode = openForCli(options.db)
  const progress = createProgress(io)
  const deps = await createCliAppDeps(opencode, options.dataDir, options.opencode)
  try {
    const answer = await compactEventLog(deps, { dryRun: !options.applyFlag }, (p) =>
      progress(`compact: ${p.sessionsDone}/${p.sessionsTotal} sessions, ${formatBytes(p.eventBytesDone)} of ${formatBytes(p.eventBytesTotal)}`))
    const { perSession: _perSession, ...json } = answer
    const code = answer.status === 'done' ? EXIT.done : EXIT.refused
    return { code, json, text: describe(answer) }
  } finally {
    await deps.close()
    opencode.db.close()
  }
}
