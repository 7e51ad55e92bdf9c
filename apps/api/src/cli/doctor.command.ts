import { createDoctorRuntime, runDoctor } from '../features/storage/doctor.service.js'
import type { DoctorReport } from '../features/storage/doctor-report.js'
import type { CliOptions } from './cli-args.js'
import { createProgress, EXIT, formatBytes, type CliIo, type CommandResult } from './cli-io.js'
import { openForCli } from './open-db.js'

function describe(r: DoctorReport): string {
  const lines = [
    `${r.path}: ${formatBytes(r.files.db)} + ${formatBytes(r.files.wal)} WAL, ${formatBytes(r.files.freeBytes)} free inside`,
    `event log: ${formatBytes(r.events.current)} current, ${formatBytes(r.events.superseded)} superseded snapshots, ${formatBytes(r.events.redacted)} already redacted`,
    `tables: ${Object.entries(r.tables).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([t, b]) => `${t} ${formatBytes(b)}`).join(', ')}`,
    `content: tool output ${formatBytes(r.content.toolOutput)}, reasoning ${formatBytes(r.content.reasoning)}, images ${formatBytes(r.content.images)}`,
    `biggest sessions (of ${r.sessionCount}):`,
    ...r.sessions.slice(0, 10).map((s) => `  ${formatBytes(s.bytes).padStart(9)}  ${s.id}  ${s.title}`),
  ]
  return lines.join('\n') + '\n'
}

/** `loupe doctor`: where the bytes of the whole file are; read-only. */
export async function doctorCommand(options: CliOptions, io: CliIo): Promise<CommandResult> {
  const opencode = openForCli(options.db)
  const progress = createProgress(io)
  try {
    const report = await runDoctor({ opencode, doctor: createDoctorRuntime() }, (p) => progress(`doctor: ${p.phase} ${Math.round(p.fraction * 100)}%`))
    progress(`doctor: done in ${report.tookMs} ms`, true)
    const sessions = report.sessions.map((s) => ({ id: s.id, title: s.title, bytes: s.bytes, eventBytes: s.eventBytes, supersededBytes: s.supersededBytes, projectID: s.projectID, storage: s.storage }))
    return { code: EXIT.done, json: { status: 'done', ...report, sessions }, text: describe(report) }
  } finally {
    opencode.db.close()
  }
}
