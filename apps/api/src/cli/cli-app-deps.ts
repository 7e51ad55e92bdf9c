import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import { DEFAULT_LIVE_WINDOW_MINUTES } from '../config.js'
import type { AppDeps } from '../deps.js'
import { createConversationDeps } from '../features/conversation/conversation.deps.js'
import { createPruningRuntime } from '../features/pruning/pruning-runtime.js'
import { createCompactRunner } from '../features/storage/compact-runner.js'
import { createStorageRuntime } from '../features/storage/storage-runtime.js'
import { SERVER_LIMITS } from '../http/server-limits.js'
import { createSearchIndex } from '../index/search-index.js'
import { systemClock } from '../lib/clock.js'
import { createEventBus } from '../lib/event-bus.js'
import { openLoupeDb } from '../loupe-db/loupe-db.js'
import { createOpenCodeClient } from '../opencode/opencode-client.js'
import type { OpenCodeHandle } from '../store/open-opencode.js'
import type { CliOpenCode } from './cli-args.js'

/**
 * The deps the prune path needs, built without listening: Loupe's own database and its search
 * sidecar (a prune re-indexes what it changed), and the OpenCode client the live guard asks
 * (every OpenCode process holding the file, with the environment's credentials).
 */
export async function createCliAppDeps(opencode: OpenCodeHandle, dataDir: string, server: CliOpenCode): Promise<AppDeps & { close(): Promise<void> }> {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const loupeDb = await openLoupeDb(dataDir)
  const events = createEventBus()
  const searchIndex = createSearchIndex({ opencode, dataDir, events, mode: 'manual' })
  const deps: AppDeps & { close(): Promise<void> } = {
    config: {
      host: '127.0.0.1', port: 0, token: randomBytes(24).toString('base64url'), dataDir,
      allowedHostNames: [], lanAddresses: [], webRoot: null, demo: false, serverLimits: SERVER_LIMITS, liveWindowMs: DEFAULT_LIVE_WINDOW_MINUTES * 60_000,
    },
    opencode,
    loupeDb,
    clock: systemClock,
    events,
    searchIndex,
    pruning: createPruningRuntime(),
    compaction: createCompactRunner(),
    storage: createStorageRuntime('manual'),
    randomBytes,
    opencodeClient: createOpenCodeClient(server),
    conversation: createConversationDeps({ gitEnv: {} }),
    close: async () => {
      await deps.searchIndex.close()
      loupeDb.close()
    },
  }
  return deps
}
