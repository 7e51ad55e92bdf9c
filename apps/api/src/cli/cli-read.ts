import { isAppError, type AppErrorCode } from '../errors.js'
import { CliUsageError } from './cli-args.js'
import { EXIT, type CliIo, type CommandResult } from './cli-io.js'

/** Expected answers of the read services: the same typed refusals the tRPC procedures give. */
const REFUSALS = new Set<AppErrorCode>(['not_found', 'invalid_input', 'invalid_cursor', 'conflict', 'unsupported_storage'])

/**
 * Run a read command; a refusal of the service exits 2 with its reason on stderr (and as
 * `{ status: 'refused' }` on stdout for --json). Anything else is an error for runCli.
 */
export async function refusing(io: CliIo, run: () => Promise<CommandResult> | CommandResult): Promise<CommandResult> {
  try {
    return await run()
  } catch (error) {
    if (!isAppError(error) || !REFUSALS.has(error.code)) throw error
    io.err(`loupe: refused (${error.code}): ${error.message}\n`)
    return { code: EXIT.refused, json: { status: 'refused', reason: error.code, message: error.message }, text: '' }
  }
}

const DAY_MS = 86_400_000

/**
 * `--since`/`--until`: epoch milliseconds, an ISO date (`2026-11-01`, UTC, the whole day for
 * `--until`) or an ISO date-time.
 */
export function parseTime(flag: string, value: string | undefined, endOfDay: boolean): number | undefined {
  if (value === undefined) return undefined
  if (/^\d{1,16}$/.test(value)) return Number(value)
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) + (endOfDay ? DAY_MS - 1 : 0) : Date.parse(value)
  if (!Number.isFinite(ms) || ms < 0) throw new CliUsageError(`${flag} takes a date (2026-11-01), a date-time or epoch milliseconds, not ${JSON.stringify(value.slice(0, 40))}`)
  return ms
}

/** `--limit N`: a whole number from 1 to `max`. */
export function parseLimit(value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < 1 || n > max) throw new CliUsageError(`--limit takes a whole number from 1 to ${max}`)
  return n
}

/** `2026-11-30 14:02` (UTC) for tables; "-" when unknown. */
export const shortTime = (ms: number) => (Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') : '-')

/** One table line: a cell cut to its width (with an ellipsis) and padded. */
export const cell = (text: string, width: number) => {
  const one = text.replace(/\s+/g, ' ').trim()
  return (one.length > width ? `${one.slice(0, width - 1)}…` : one).padEnd(width)
}
