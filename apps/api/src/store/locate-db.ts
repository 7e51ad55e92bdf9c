import fs from 'node:fs'
import path from 'node:path'

export interface LocatedDb {
  path: string
  /** How it was found, for the startup message. */
  source: 'OPENCODE_DB' | 'default' | 'channel'
}

export interface LocateEnv {
  OPENCODE_DB?: string | undefined
  OPENCODE_DISABLE_CHANNEL_DB?: string | undefined
  XDG_DATA_HOME?: string | undefined
  HOME?: string | undefined
}

/** `$XDG_DATA_HOME/opencode`, as OpenCode's Global.Path.data (xdg-basedir, app name `opencode`). */
export function opencodeDataDir(env: LocateEnv): string {
  const base = env.XDG_DATA_HOME || path.join(env.HOME ?? '', '.local', 'share')
  return path.join(base, 'opencode')
}

/**
 * Find the user's OpenCode database the way OpenCode resolves it: `OPENCODE_DB` (absolute, or
 * relative to the data dir), then `<data>/opencode.db`, then a channel file `opencode-<channel>.db`
 * (the most recently modified). Undefined when none exists; `:memory:` has no file to open.
 */
export function locateOpenCodeDb(env: LocateEnv): LocatedDb | undefined {
  const data = opencodeDataDir(env)
  if (env.OPENCODE_DB) {
    if (env.OPENCODE_DB === ':memory:') return undefined
    const file = path.isAbsolute(env.OPENCODE_DB) ? env.OPENCODE_DB : path.join(data, env.OPENCODE_DB)
    return fs.existsSync(file) ? { path: file, source: 'OPENCODE_DB' } : undefined
  }
  const main = path.join(data, 'opencode.db')
  if (fs.existsSync(main)) return { path: main, source: 'default' }
  if (env.OPENCODE_DISABLE_CHANNEL_DB === '1' || env.OPENCODE_DISABLE_CHANNEL_DB === 'true') return undefined
  const channels = listChannelDbs(data)
  return channels[0] ? { path: channels[0], source: 'channel' } : undefined
}

function listChannelDbs(dir: string): string[] {
  let names: string[]
  try {
    names = fs.readdirSync(dir)
  } catch {
    return []
  }
  return names
    .filter((name) => /^opencode-[\w.-]+\.db$/.test(name))
    .map((name) => path.join(dir, name))
    .map((file) => ({ file, mtime: fs.statSync(file).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)
    .map((entry) => entry.file)
}
