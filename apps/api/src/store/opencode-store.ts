import type { CanonicalNativeMessage, JsonObject, NativeMessage, SessionSort, SortOrder, StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { EventLocator } from './event-locator.js'
import type { EventCompactionRole } from './event-compaction.store.js'
import type { GalleryStore } from './gallery.store.js'
import type { IndexSourceStore } from './index-source.js'
import type { GenerationLayout } from './probe.js'
import type { PruneStore } from './prune.store.js'
import type { ReceiptStore } from './receipts.store.js'
import type { SessionTotals, TotalsSource } from './session-totals.js'
import type { UsageRole } from './usage.store.js'

export interface SessionRecord {
  storage: StorageGeneration
  id: string
  title: string
  slug: string | null
  directory: string
  projectID: string
  parentID: string | null
  workspaceID: string | null
  version: string
  metadata: JsonObject | null
  revert: JsonObject | null
  agent: string | null
  cost: number
  tokens: { input: number; output: number; reasoning: number; cacheRead: number; cacheWrite: number }
  timeCreated: number
  timeUpdated: number
  timeArchived: number | null
  timeCompacting: number | null
  /** 2.x execution claim (`session_v2.time_suspended`); null on 1.x. */
  timeSuspended: number | null
}

/** Newest-first order key: (timeUpdated, id) descending. */
export interface SessionKey {
  timeUpdated: number
  id: string
}

export interface SessionListFilters {
  search?: string | undefined
  projectID?: string | undefined
  directory?: string | undefined
  parentID?: string | undefined
  includeArchived: boolean
  rootsOnly: boolean
}

export interface SessionListQuery extends SessionListFilters {
  /** Exclusive bound, or inclusive when `inclusive` (for the cross-generation tie-break). */
  before?: (SessionKey & { inclusive: boolean }) | undefined
  limit: number
}

/** A page of the sorted list: past `after` in the sort's direction (inclusive for the cross-generation tie-break). */
export interface SessionPageQuery extends SessionListFilters {
  sort: SessionSort
  order: SortOrder
  after?: { value: number; id: string; inclusive: boolean } | undefined
  limit: number
}

/** A listed session with its totals and its value under the page's sort. */
export interface SessionPageRow {
  record: SessionRecord
  stats: SessionStats
  sortValue: number
}

/** Exact sums over every session a filter keeps. */
export interface SessionSums {
  sessions: number
  /** Stored bytes: messages, parts and the event log. */
  bytes: number
  tokens: number
  cost: number
}

export interface SessionStats {
  messages: number
  /** null where counting needs every row decoded (2.x lists). */
  parts: number | null
  bytes: { messages: number; parts: number; events: number }
}

/** Position of a message: 1.x `(time_created, id)`, 2.x `(seq, id)`. */
export interface MessageKey {
  t: number
  id: string
}

export type MessageWindow =
  | { kind: 'latest' }
  | { kind: 'earliest' }
  | { kind: 'before'; key: MessageKey }
  | { kind: 'after'; key: MessageKey }
  /** From `key` inclusive, ascending. */
  | { kind: 'at'; key: MessageKey }

export interface MessageSlot {
  key: MessageKey
  /** Stored bytes of the message row plus its parts. */
  bytes: number
}

export interface BreakdownRow {
  /** `part` (1.x parts, 2.x content items and user files), `message` (info JSON) or `event` (the log). */
  area: 'part' | 'message' | 'event'
  kind: string
  tool: string | null
  count: number
  bytes: number
}

/**
 * A message loaded for planning a prune. 2.x also keeps the exact `session_message.data` text it was
 * read from, so a write in the same transaction compares against it without reading 1 MiB again.
 */
export type LoadedMessage = CanonicalNativeMessage & { storedText?: string }

/**
 * One OpenCode storage generation of the opened file, built once when it is probed (store.ts).
 * Its own methods are the session and transcript reads every feature uses; the write and gallery
 * sides are roles, each its own small interface, so a caller can be handed one role alone.
 */
export interface OpenCodeStore {
  readonly generation: StorageGeneration
  readonly layout: GenerationLayout
  /** What the search index reads from this generation (index-source.ts). */
  readonly indexSource: IndexSourceStore
  /** Event-log compaction: a log of superseded snapshots to redact, or why this generation has none. */
  readonly eventCompaction: EventCompactionRole
  /** Prune writes and the refusal fences' reads, inside the caller's write transaction. */
  readonly prune: PruneStore
  /** The gallery's row scans (sizes, proofs, notices, one stored file). */
  readonly gallery: GalleryStore
  /** Prune receipts: where they live depends on the file (kv or Loupe's table), so both generations share one. */
  readonly receipts: ReceiptStore
  /** Tokens and cost of the assistant messages by day, session and model, for the overview. */
  readonly usage: UsageRole
  /** How a search document names the technical part at `index` of this message (1.x: its part id; 2.x: the index). */
  partKeyAt(message: NativeMessage, index: number): string
  listSessions(db: SqliteDb, query: SessionListQuery): SessionRecord[]
  /** Where this generation's per-session totals come from (session-totals.ts). */
  readonly totalsSource: TotalsSource
  /** A page in the query's order, with totals; the caller refreshes the totals first. */
  pageSessions(db: SqliteDb, query: SessionPageQuery): SessionPageRow[]
  /** Sums over every session the filters keep; the caller refreshes the totals first. */
  sumSessions(db: SqliteDb, filters: SessionListFilters): SessionSums
  getSession(db: SqliteDb, id: string): SessionRecord | undefined
  sessionStats(db: SqliteDb, ids: readonly string[]): Map<string, SessionStats>
  /** How many messages a session has (index-only). */
  countMessages(db: SqliteDb, sessionID: string): number
  /** Up to `limit` message positions in transcript order, from the window's anchor. */
  messageSlots(db: SqliteDb, sessionID: string, window: MessageWindow, limit: number): MessageSlot[]
  findMessageKey(db: SqliteDb, sessionID: string, messageID: string): MessageKey | undefined
  /**
   * The native read form of these messages, in the order given. `media: 'refs'` leaves media refs as
   * stored (`media:<sha256>`) instead of inlining their blobs: for listings that go by blob sizes only.
   * `canonical` also reads each large content item's canonical pieces off its stored text
   * (`canonicalItems`), so revisions of megabytes need no second serialization.
   */
  loadMessages(db: SqliteDb, sessionID: string, ids: readonly string[], options?: { media?: 'inline' | 'refs' }): NativeMessage[]
  loadMessages(db: SqliteDb, sessionID: string, ids: readonly string[], options: { media?: 'inline' | 'refs'; canonical: true }): LoadedMessage[]
  /** A message too large to load: its small fields only, marked `omitted`. */
  loadOmitted(db: SqliteDb, sessionID: string, id: string, bytes: number): NativeMessage | undefined
  bytesBreakdown(db: SqliteDb, sessionID: string): BreakdownRow[]
  /** Every stored part (1.x) or content item (2.x) of a session, for estimates that need the text. */
  iterateParts(db: SqliteDb, sessionID: string): Iterable<unknown>
  /** Sessions per project among those the filters keep, for the project filter. */
  countByProject(db: SqliteDb, filters: SessionListFilters): Map<string, number>
}

/** Per-file state that both generations' stores share, built once by createStores. */
export interface SharedRoles {
  receipts: ReceiptStore
  /** Where each 1.x part's events are (a cache over the file's event log). */
  locator: EventLocator
  /** The file's `schema_version` when the write fences last compared its whole schema to the probe. */
  schema: { checkedVersion: number | null }
  /** Per-session totals for sorting and sums, kept fresh per file (session-totals.ts). */
  totals: SessionTotals
}
