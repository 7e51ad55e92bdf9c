import { createKeyedLock, type KeyedLock } from './keyed-lock.js'
import type { GitEnvironment } from './git-exclude.service.js'
import { createOpenCodeServer, type OpenCodeServer } from './opencode-client.js'

/** What the Images conversation needs from the outside world; one per process, on AppDeps. */
export interface ConversationDeps {
  /** Process-wide: `open` per (database file, project, directory); appends per exclude file. */
  locks: KeyedLock
  /** OpenCode's own HTTP API (`--opencode-url`), or null when none was configured. */
  server: OpenCodeServer | null
  git: GitEnvironment
}

export interface ConversationOptions {
  opencodeUrl: string | null
  opencodeUsername: string | null
  opencodePassword: string | null
  /** PATH and HOME for git, from the process environment (config.ts reads it). */
  gitEnv: Record<string, string>
  serverTimeoutMs?: number
  gitTimeoutMs?: number
}

export function createConversationDeps(options: ConversationOptions): ConversationDeps {
  return {
    locks: createKeyedLock(),
    server: createOpenCodeServer({
      url: options.opencodeUrl,
      username: options.opencodeUsername,
      password: options.opencodePassword,
      timeoutMs: options.serverTimeoutMs,
    }),
    git: { env: options.gitEnv, timeoutMs: options.gitTimeoutMs ?? 10_000 },
  }
}
