import { isAppError } from '../errors.js'
import { CliUsageError, parseCliArgs, type CliEnv, type CliOptions } from './cli-args.js'
import { EXIT, type CliIo, type CommandResult } from './cli-io.js'
import { cleanCommand } from './clean.command.js'
import { compactCommand } from './compact.command.js'
import { doctorCommand } from './doctor.command.js'
import { reclaimCommand } from './reclaim.command.js'
import { SEARCH_USAGE, searchCommand } from './search.command.js'
import { SESSIONS_USAGE, sessionsCommand } from './sessions.command.js'
import { SHOW_USAGE, showCommand } from './show.command.js'

interface Command {
  summary: string
  run(options: CliOptions, io: CliIo): Promise<CommandResult>
  /** `loupe <command> --help`; the general usage where a command has none of its own. */
  usage?: string
  /** The command takes words after its name (`search QUERY`, `show SESSION`). */
  positionals?: boolean
}

/** One entry per command, one file each. */
const COMMANDS: Record<string, Command> = {
  sessions: { summary: 'list sessions, newest first (read-only)', run: sessionsCommand, usage: SESSIONS_USAGE },
  search: { summary: 'search QUERY [--scope all|DIR|SESSION] [--kind K] [--since D] [--until D] [--limit N]', run: searchCommand, usage: SEARCH_USAGE, positionals: true },
  show: { summary: 'show SESSION [--message ID]: a message and its neighbours as text (read-only)', run: showCommand, usage: SHOW_USAGE, positionals: true },
  doctor: { summary: 'where the bytes of the database are (read-only)', run: doctorCommand },
  compact: { summary: 'redact superseded snapshots in the event log; a dry run unless --apply', run: compactCommand },
  reclaim: { summary: 'rebuild the file with VACUUM INTO and swap it in (OpenCode must be stopped)', run: reclaimCommand },
  clean: { summary: 'retention clean-up: --idle-days N [--project ID] [--min-tool-kb K]; a dry run unless --apply FINGERPRINT', run: cleanCommand },
}

const USAGE = `Usage: loupe <command> [--db PATH] [--data-dir DIR] [--json] [options]

Commands:
${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)}${c.summary}`).join('\n')}
  serve    the web app (the default without a command): --db PATH --port N --no-open …

  --db PATH        OpenCode's database (default: the one \`npm start\` finds: OPENCODE_DB, $XDG_DATA_HOME/opencode/opencode.db)
  --data-dir DIR   Loupe's own state (LOUPE_HOME, default $XDG_DATA_HOME/loupe)
  --json           print one JSON object on stdout, or one per line for lists (progress goes to stderr either way)
  --no-backup      reclaim: remove the original once the compacted copy is in place
  --idle-days N    clean: sessions with no activity for at least N days
  --project ID     clean: only this project's sessions
  --min-tool-kb K  clean: only tool parts stored at K KB or more (else all tool calls and reasoning)
  --apply          compact: write (without it, a dry run that only counts)
  --apply FP       clean: apply the dry run whose fingerprint is FP (refused with exit 2 if anything changed)

  mcp [--db PATH] [--data-dir DIR]   serve the MCP tools (session_search, session_read, storage_report) on stdio

Exit status: 0 done, 2 refused (the reason is in the output), 1 error. \`loupe <command> --help\` for one command.
`

/** Run one CLI command; answers the exit code. The composition root of the CLI: it builds the deps each command needs. */
export async function runCli(argv: readonly string[], env: CliEnv, io: CliIo, cwd = process.cwd()): Promise<number> {
  let json = argv.includes('--json')
  try {
    const { command, options } = parseCliArgs(argv, env, cwd)
    json = options.json
    const entry = command === null ? undefined : COMMANDS[command]
    if (options.help || command === null) {
      io[command === null && !options.help ? 'err' : 'out'](entry?.usage ?? USAGE)
      return command === null && !options.help ? EXIT.error : EXIT.done
    }
    if (!entry) throw new CliUsageError(`unknown command ${command}`)
    if (!entry.positionals && options.positionals.length) throw new CliUsageError(`unexpected argument ${options.positionals[0]}`)
    const result = await entry.run(options, io)
    if (!json) io.out(result.text)
    else if (result.jsonLines && result.code === EXIT.done) io.out(result.jsonLines.map((line) => `${JSON.stringify(line)}\n`).join(''))
    else io.out(`${JSON.stringify(result.json)}\n`)
    return result.code
  } catch (error) {
    const message = error instanceof CliUsageError ? `${error.message}\n\n${USAGE}` : isAppError(error) ? error.message : String((error as Error).stack ?? error)
    if (json) io.out(`${JSON.stringify({ status: 'error', message: error instanceof CliUsageError ? error.message : message })}\n`)
    else io.err(`loupe: ${message}\n`)
    return EXIT.error
  }
}
