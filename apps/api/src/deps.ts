import type { Clock } from './lib/clock.js'
import type { PruningRuntime } from './features/pruning/pruning-runtime.js'
import type { CompactRunner } from './features/storage/compact-runner.js'
import type { EventBus } from './lib/event-bus.js'
import type { HeapCollector } from './lib/heap-collector.js'
import type { SqliteDb } from './lib/sqlite.js'
import type { SearchIndex } from './index/search-index.js'
import type { ConversationDeps } from './features/conversation/conversation.deps.js'
import type { OpenCodeClient } from './opencode/opencode-client.js'
import type { OpenCodeHandle } from './store/open-opencode.js'
import type { ServerLimits } from './http/server-limits.js'
import type { StorageRuntime } from './features/storage/storage-runtime.js'
import type { TokenEstimator } from '@loupe/domain/tokens'

export interface AppConfig {
  /** The address the server listens on; `0.0.0.0` serves the LAN. */
  host: string
  port: number
  /** The owner's token: Bearer for API clients, an HttpOnly cookie for the browser. */
  token: string
  /** Loupe's own state directory (never inside OpenCode's). */
  dataDir: string
  /** While OpenCode holds the file and no server of it answers, sessions active this recently are not pruned. */
  liveWindowMs: number
  /** Host names this server answers to (the port is checked separately); anything else is refused (DNS rebinding). */
  allowedHostNames: string[]
  /** Addresses other devices can reach, for LAN share links. */
  lanAddresses: string[]
  /** The built SPA (apps/web/dist), or null when it was not built. */
  webRoot: string | null
  /** True when Loupe generated a demo database because no OpenCode database was found. */
  demo: boolean
  /** Timeouts and the per-address socket cap of the HTTP server (SERVER_LIMITS outside tests). */
  serverLimits: ServerLimits
}

/** Everything buildApp needs; main.ts alone creates these. */
export interface AppDeps {
  config: AppConfig
  opencode: OpenCodeHandle
  loupeDb: SqliteDb
  clock: Clock
  events: EventBus
  /** The full-text search sidecar and its indexer. */
  searchIndex: SearchIndex
  /** Pruning's state between requests: the WAL policy of Loupe's connection. */
  pruning: PruningRuntime
  /** The running event-log compaction: its progress and its stop. */
  compaction: CompactRunner
  /** The storage doctor's cached report and the one running reclaim. */
  storage: StorageRuntime
  /** Cryptographically secure random bytes (share tokens). */
  randomBytes(size: number): Buffer
  /** OpenCode's HTTP servers (the explicit one and those Loupe finds): credentials, timeouts, typed answers. */
  opencodeClient: OpenCodeClient
  /** The Images conversation: its process-wide lock and git's environment. */
  conversation: ConversationDeps
  /** Model-token estimates (o200k_base), its tables loaded on the first count. */
  tokenizer: TokenEstimator
  /** Gives back the garbage of a long job on the server's thread once it ends. */
  heap: HeapCollector
}
