import { createKeyedLock, type KeyedLock } from './keyed-lock.js'
import type { GitEnvironment } from './git-exclude.service.js'

/** What the Images conversation needs from the outside world besides OpenCode's client; one per process, on AppDeps. */
export interface ConversationDeps {
  /** Process-wide: `open` per (database file, project, directory); appends per exclude file. */
  locks: KeyedLock
  git: GitEnvironment
}

export interface ConversationOptions {
  /** PATH and HOME for git, from the process environment (config.ts reads it). */
  gitEnv: Record<string, string>
  gitTimeoutMs?: number
}

export function createConversationDeps(options: ConversationOptions): ConversationDeps {
  return {
    locks: createKeyedLock(),
    git: { env: options.gitEnv, timeoutMs: options.gitTimeoutMs ?? 10_000 },
  }
}
