import { LIMITS } from '@loupe/domain'
import { AppError } from '../errors.js'
import { listSessionsInput } from '../features/sessions/sessions.schema.js'
import { listSessions, type SessionSummary } from '../features/sessions/sessions.service.js'
import type { CliOptions } from './cli-args.js'
import { EXIT, formatBytes, type CliIo, type CommandResult } from './cli-io.js'
import { cell, parseLimit, refusing, shortTime } from './cli-read.js'
import { openForCli } from './open-db.js'

export const SESSIONS_USAGE = `Usage: loupe sessions [--db PATH] [--json] [--limit N] [--project ID] [--sort updated|size|eventBytes|tokens|cost|messages]

Sessions of OpenCode's database, newest activity first (the list the UI shows: archived ones left out).
  --limit N      at most N sessions (default 50, at most 10000)
  --project ID   only this project's sessions
  --sort KEY     order by this key, largest first (default: updated)
  --json         one JSON object per line, each a session as the UI's sessions.list gives it
`

const MAX_SESSIONS = 10_000
const storedBytes = (s: SessionSummary) => s.stats.bytes.messages + s.stats.bytes.parts + s.stats.bytes.events

function table(sessions: SessionSummary[], total: number): string {
  if (sessions.length === 0) return 'No sessions.\n'
  const head = `${cell('UPDATED', 16)}  ${'SIZE'.padStart(9)}  ${'MSGS'.padStart(5)}  ${cell('ID', 30)}  TITLE`
  const rows = sessions.map((s) => `${cell(shortTime(s.timeUpdated), 16)}  ${formatBytes(storedBytes(s)).padStart(9)}  ${String(s.stats.messages).padStart(5)}  ${cell(s.id, 30)}  ${cell(s.title || '(untitled)', 60).trimEnd()}`)
  return [head, ...rows, `${sessions.length} of ${total} sessions`].join('\n') + '\n'
}

/** `loupe sessions`: pages of `sessions.list` until the limit, read-only. */
export async function sessionsCommand(options: CliOptions, io: CliIo): Promise<CommandResult> {
  const limit = parseLimit(options.limit, 50, MAX_SESSIONS)
  const opencode = openForCli(options.db)
  try {
    return await refusing(io, () => {
      const base = { projectID: options.project, sort: options.sort, order: options.sort ? 'desc' : undefined }
      const checked = listSessionsInput.safeParse({ ...base, limit: 1 })
      if (!checked.success) throw new AppError('invalid_input', `Invalid list: ${checked.error.issues[0]?.path.join('.')} ${checked.error.issues[0]?.message}`)
      const sessions: SessionSummary[] = []
      let cursor: string | undefined
      let total = 0
      do {
        const page = listSessions({ opencode }, { ...checked.data, cursor, limit: Math.min(LIMITS.pageSizeMax, limit - sessions.length) })
        sessions.push(...page.sessions)
        total = page.totals.sessions
        cursor = page.cursor ?? undefined
      } while (cursor && sessions.length < limit)
      return { code: EXIT.done, json: { status: 'done', sessions, total }, jsonLines: sessions, text: table(sessions, total) }
    })
  } finally {
    opencode.db.close()
  }
}
