import os from 'node:os'
import path from 'node:path'
import { z } from 'zod'

export const USAGE = `Usage: npm start -- [options]

  --db PATH            OpenCode database to open (LOUPE_DB). Default: the one OpenCode uses
                       (OPENCODE_DB, $XDG_DATA_HOME/opencode/opencode.db, channel files), else a demo
  --port N             port to listen on (LOUPE_PORT, default 4455, or a free one if taken)
  --host ADDR          address to listen on (LOUPE_HOST, default 127.0.0.1; 0.0.0.0 serves the LAN)
  --data-dir DIR       Loupe's own state (LOUPE_HOME, default $XDG_DATA_HOME/loupe)
  --opencode-url URL   a running \`opencode serve\` (LOUPE_OPENCODE_URL), for the Images conversation;
                       asked about running sessions along with the servers Loupe finds itself
  --live-window-minutes N   while OpenCode holds the file and no server of it answers, sessions active
                       in the last N minutes are not pruned (LOUPE_LIVE_WINDOW_MINUTES, default 10)
  --no-open            do not open a browser
  LOUPE_TOKEN fixes the access token; OPENCODE_SERVER_PASSWORD (and OPENCODE_SERVER_USERNAME,
  default opencode) are sent to the OpenCode server.`

export interface Config {
  db: string | null
  /** null: the default port, or any free port when it is taken. */
  port: number | null
  host: string
  dataDir: string
  opencodeUrl: string | null
  opencodePassword: string | null
  opencodeUsername: string | null
  liveWindowMinutes: number
  /** PATH and HOME for running git (the Images conversation's exclusion); nothing else is passed on. */
  gitEnv: Record<string, string>
  open: boolean
  token: string | null
  /** What locating OpenCode's database needs from the environment. */
  locateEnv: { OPENCODE_DB?: string; OPENCODE_DISABLE_CHANNEL_DB?: string; XDG_DATA_HOME?: string; HOME?: string }
}

/** While OpenCode holds the file and no server of it answers, sessions active this recently are left alone. */
export const DEFAULT_LIVE_WINDOW_MINUTES = 10
export const DEFAULT_PORT = 4455
/** A LOUPE_TOKEN guards the whole history on the LAN; the random default is 32 characters. */
export const MIN_TOKEN_CHARS = 24

const schema = z.strictObject({
  db: z.string().min(1).nullable(),
  port: z.coerce.number().int().min(0).max(65535).nullable(),
  host: z.string().min(1).regex(/^[\w.:-]+$/, 'an address such as 127.0.0.1 or 0.0.0.0'),
  dataDir: z.string().min(1),
  opencodeUrl: z.url({ protocol: /^https?$/ }).nullable(),
  liveWindowMinutes: z.coerce.number().int().min(0).max(7 * 24 * 60),
  open: z.boolean(),
})

const FLAGS: Record<string, keyof z.infer<typeof schema>> = {
  '--db': 'db', '--port': 'port', '--host': 'host', '--data-dir': 'dataDir', '--opencode-url': 'opencodeUrl',
  '--live-window-minutes': 'liveWindowMinutes',
}

/** The only reader of process.env and argv: flags win over LOUPE_* variables. */
export function loadConfig(argv: readonly string[], env: Record<string, string | undefined>): Config {
  const home = env.HOME || os.homedir()
  const raw: Record<string, unknown> = {
    db: env.LOUPE_DB || null,
    port: env.LOUPE_PORT || null,
    host: env.LOUPE_HOST || '127.0.0.1',
    dataDir: env.LOUPE_HOME || path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'loupe'),
    opencodeUrl: env.LOUPE_OPENCODE_URL || null,
    liveWindowMinutes: env.LOUPE_LIVE_WINDOW_MINUTES || DEFAULT_LIVE_WINDOW_MINUTES,
    open: true,
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    if (flag === '--no-open') raw.open = false
    else if (flag === '--help' || flag === '-h') throw new ConfigError(USAGE, 0)
    else if (FLAGS[flag]) {
      const value = inline ?? argv[++i]
      if (value === undefined) throw new ConfigError(`${flag} needs a value.\n\n${USAGE}`)
      raw[FLAGS[flag]] = value
    } else throw new ConfigError(`Unknown option ${arg}.\n\n${USAGE}`)
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new ConfigError(`Invalid ${String(issue?.path[0])}: ${issue?.message}.\n\n${USAGE}`)
  }
  const token = env.LOUPE_TOKEN || null
  if (token !== null && token.length < MIN_TOKEN_CHARS) {
    throw new ConfigError(`LOUPE_TOKEN must be at least ${MIN_TOKEN_CHARS} characters long (it has ${token.length}): it opens your whole history to anyone who can reach Loupe. Unset it for a random one, or use e.g. \`openssl rand -base64 24\`.`)
  }
  const resolve = (p: string) => path.resolve(p.startsWith('~/') ? path.join(home, p.slice(2)) : p)
  return {
    ...parsed.data,
    db: parsed.data.db ? resolve(parsed.data.db) : null,
    dataDir: resolve(parsed.data.dataDir),
    opencodeUrl: parsed.data.opencodeUrl?.replace(/\/+$/, '') ?? null,
    opencodePassword: env.OPENCODE_SERVER_PASSWORD || null,
    opencodeUsername: env.OPENCODE_SERVER_USERNAME || null,
    gitEnv: Object.fromEntries(['PATH', 'HOME', 'XDG_CONFIG_HOME'].flatMap((k) => (env[k] ? [[k, env[k]]] : []))),
    token,
    locateEnv: {
      ...(env.OPENCODE_DB ? { OPENCODE_DB: env.OPENCODE_DB } : {}),
      ...(env.OPENCODE_DISABLE_CHANNEL_DB ? { OPENCODE_DISABLE_CHANNEL_DB: env.OPENCODE_DISABLE_CHANNEL_DB } : {}),
      ...(env.XDG_DATA_HOME ? { XDG_DATA_HOME: env.XDG_DATA_HOME } : {}),
      HOME: home,
    },
  }
}

export class ConfigError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message)
  }
}
