import type { IdSource } from './opencode-ids.js'
import type { Random } from './random.js'

/** Rows as they go into the 1.18.33 tables (opencode-storage.md §4, §8). */
export interface SessionRow {
  id: string
  project_id: string
  parent_id: string | null
  slug: string
  directory: string
  path: string
  title: string
  version: string
  summary_additions: number | null
  summary_deletions: number | null
  summary_files: number | null
  metadata: string | null
  cost: number
  tokens_input: number
  tokens_output: number
  tokens_reasoning: number
  tokens_cache_read: number
  tokens_cache_write: number
  revert: string | null
  permission: string | null
  agent: string | null
  model: string | null
  time_created: number
  time_updated: number
  time_archived: number | null
}

export interface MessageRow {
  id: string
  session_id: string
  time_created: number
  time_updated: number
  data: string
}

export interface PartRow {
  id: string
  message_id: string
  session_id: string
  time_created: number
  time_updated: number
  data: string
}

export interface EventRow {
  id: string
  aggregate_id: string
  seq: number
  type: string
  data: string
}

export interface TodoRow {
  session_id: string
  content: string
  status: string
  priority: string
  position: number
  time_created: number
  time_updated: number
}

/** Everything one session wrote; flushed to the database when the session ends. */
export interface SessionRows {
  session: SessionRow
  messages: MessageRow[]
  parts: PartRow[]
  events: EventRow[]
  /** `event_sequence.seq`: the last seq used, or -1 when the session has no events. */
  lastSeq: number
  todos: TodoRow[]
}

/** A monotonic clock the generator advances; every id and timestamp is read from it. */
export interface DemoClock {
  now(): number
  /** Move forward by a random duration in [minMs, maxMs]; returns the new time. */
  tick(minMs: number, maxMs: number): number
  /** Jump forward to `ms` if it is later than now. */
  jumpTo(ms: number): number
}

export function createDemoClock(random: Random, start: number): DemoClock {
  let t = start
  return {
    now: () => t,
    tick: (minMs, maxMs) => (t += random.int(Math.max(0, Math.round(minMs)), Math.max(0, Math.round(maxMs)))),
    jumpTo: (ms) => (t = Math.max(t, Math.round(ms))),
  }
}

export interface WriterContext {
  random: Random
  ids: IdSource
  clock: DemoClock
  /** When false, event payloads are not serialised or kept (ids are still drawn, so rows stay identical). */
  events: boolean
  version: string
  sink(rows: SessionRows): void
}
