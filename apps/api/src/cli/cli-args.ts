import path from 'node:path'
import { locateOpenCodeDb, type LocateEnv } from '../store/locate-db.js'

export interface CliEnv extends LocateEnv {
  LOUPE_HOME?: string | undefined
  OPENCODE_SERVER_USERNAME?: string | undefined
  OPENCODE_SERVER_PASSWORD?: string | undefined
  LOUPE_OPENCODE_URL?: string | undefined
}

/** How the CLI asks OpenCode's servers whether a session is running: the credentials `opencode serve` reads. */
export interface CliOpenCode {
  url: string | null
  username: string | null
  password: string | null
}

export interface CliOptions {
  db: string | null
  /** Loupe's own state dir (the search sidecar lives there), as the server's `--data-dir`. */
  dataDir: string
  json: boolean
  keepBackup: boolean
  help: boolean
  /** `compact --apply` (no value): write; without it a dry run. */
  applyFlag: boolean
  /** `clean`: the rule (validated by the command) and the fingerprint to apply. */
  idleDays?: string
  project?: string
  minToolKb?: string
  apply?: string
  /** `search QUERY`, `show SESSION`: the words after the command. */
  positionals: string[]
  /** `search`/`sessions`/`show` flags, checked by the command that reads them. */
  scope?: string
  kinds: string[]
  tool?: string
  since?: string
  until?: string
  limit?: string
  message?: string
  cursor?: string
  sort?: string
  /** `search --no-build`: answer from the index as it is (or the literal scan), without building it first. */
  noBuild: boolean
  opencode: CliOpenCode
}

export class CliUsageError extends Error {}

/** `--scope .` or `../app`: a project directory as the shell names it, made absolute; ids and `all` stay as given. */
const resolveScope = (scope: string | undefined, cwd: string) =>
  scope !== undefined && (scope === '.' || scope === '..' || /^\.\.?\//.test(scope)) ? path.resolve(cwd, scope) : scope

const VALUE_FLAGS = new Set(['--db', '--data-dir', '--idle-days', '--project', '--min-tool-kb', '--apply', '--scope', '--kind', '--tool', '--since', '--until', '--limit', '--message', '--cursor', '--sort'])
const BOOL_FLAGS = new Set(['--json', '--no-backup', '--help', '-h', '--no-build'])

/** `<command> [positionals] [--db PATH] [--data-dir DIR] [--json] [flags]`; unknown flags are an error, never ignored. */
export function parseCliArgs(argv: readonly string[], env: CliEnv, cwd: string): { command: string | null; options: CliOptions } {
  const values = new Map<string, string>()
  const flags = new Set<string>()
  const kinds: string[] = []
  const positionals: string[] = []
  let command: string | null = null
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    // `compact --apply` takes no value; `clean --apply FINGERPRINT` does.
    if (name === '--apply' && inline === undefined && (argv[i + 1] === undefined || argv[i + 1]!.startsWith('-'))) {
      flags.add(name)
      continue
    }
    if (VALUE_FLAGS.has(name)) {
      const value = inline ?? argv[++i]
      if (value === undefined || value === '') throw new CliUsageError(`${name} needs a value`)
      // `--kind tool --kind text` and `--kind tool,text` both ask for two kinds.
      if (name === '--kind') kinds.push(...value.split(',').filter(Boolean))
      else values.set(name, value)
    } else if (BOOL_FLAGS.has(name)) flags.add(name)
    else if (name.startsWith('-')) throw new CliUsageError(`unknown option ${name}`)
    else if (command === null) command = name
    else positionals.push(arg)
  }
  const home = env.HOME ?? ''
  const dataDir = values.get('--data-dir') ?? (env.LOUPE_HOME || path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'loupe'))
  const explicit = values.get('--db')
  const db = explicit ? path.resolve(cwd, explicit) : (locateOpenCodeDb(env)?.path ?? null)
  return {
    command,
    options: {
      db,
      dataDir: path.resolve(cwd, dataDir),
      json: flags.has('--json'),
      keepBackup: !flags.has('--no-backup'),
      help: flags.has('--help') || flags.has('-h'),
      idleDays: values.get('--idle-days'),
      project: values.get('--project'),
      minToolKb: values.get('--min-tool-kb'),
      apply: values.get('--apply'),
      applyFlag: flags.has('--apply') || values.has('--apply'),
      positionals,
      scope: resolveScope(values.get('--scope'), cwd),
      kinds,
      tool: values.get('--tool'),
      since: values.get('--since'),
      until: values.get('--until'),
      limit: values.get('--limit'),
      message: values.get('--message'),
      cursor: values.get('--cursor'),
      sort: values.get('--sort'),
      noBuild: flags.has('--no-build'),
      opencode: { url: env.LOUPE_OPENCODE_URL || null, username: env.OPENCODE_SERVER_USERNAME || null, password: env.OPENCODE_SERVER_PASSWORD || null },
    },
  }
}
