import { randomBytes } from 'node:crypto'
import type { AppConfig, AppDeps } from './deps.js'
import { createConversationDeps } from './features/conversation/conversation.deps.js'
import { createPruningRuntime } from './features/pruning/pruning-runtime.js'
import { createCompactRunner } from './features/storage/compact-runner.js'
import { createStorageRuntime } from './features/storage/storage-runtime.js'
import { createSearchIndex, type SearchIndexOptions } from './index/search-index.js'
import type { Clock } from './lib/clock.js'
import { createEventBus } from './lib/event-bus.js'
import { createHeapCollector } from './lib/heap-collector.js'
import { openLoupeDb } from './loupe-db/loupe-db.js'
import { createLazyTokenizer } from './lib/tokenizer.js'
import { createOpenCodeClient, type OpenCodeClientOptions } from './opencode/opencode-client.js'
import type { OpenCodeHandle } from './store/open-opencode.js'

/** What differs between the server (main.ts), the CLI and the tests; everything else is built the same. */
export interface AppDepsOptions {
  config: AppConfig
  /** The OpenCode database, opened and probed by the caller. */
  opencode: OpenCodeHandle
  clock: Clock
  /** The explicit OpenCode server (if any) and the credentials every OpenCode server is asked with. */
  opencodeServer: OpenCodeClientOptions
  /** PATH and HOME for git in the Images conversation. */
  gitEnv: Record<string, string>
  /** How the search index runs: 'worker' in the server, 'manual' (on request) in the CLI and tests. */
  searchIndex: Pick<SearchIndexOptions, 'mode' | 'pollMs' | 'pipelineMinRows'>
  /** The thread's full collection (the server's, from main.ts); absent: long jobs leave V8 to collect. */
  collectGarbage?: (() => void) | null
}

/**
 * The one assembly of `AppDeps`: opens Loupe's own database and its search sidecar under
 * `config.dataDir` and gives each long-lived piece of state its own instance. The caller closes
 * what it holds (`buildApp`'s onClose does for the server).
 */
export async function createAppDeps(options: AppDepsOptions): Promise<AppDeps> {
  const { config, opencode } = options
  const loupeDb = await openLoupeDb(config.dataDir)
  const events = createEventBus()
  const heap = createHeapCollector(options.collectGarbage ?? null)
  return {
    config,
    opencode,
    loupeDb,
    clock: options.clock,
    events,
    searchIndex: createSearchIndex({ opencode, dataDir: config.dataDir, events, ...options.searchIndex }),
    pruning: createPruningRuntime(),
    compaction: createCompactRunner(heap.afterJob),
    storage: createStorageRuntime(options.searchIndex.mode, heap.afterJob),
    randomBytes,
    opencodeClient: createOpenCodeClient(options.opencodeServer),
    conversation: createConversationDeps({ gitEnv: options.gitEnv }),
    tokenizer: createLazyTokenizer(),
    heap,
  }
}
