import type { EventTable, MessageTable, PartTable, SessionTable, TodoTable } from '@loupe/domain'
import type { IdSource } from './opencode-ids.js'
import type { Random } from './random.js'

/**
 * Rows as they go into the 1.18.33 tables (opencode-storage.md §4, §8). A session row leaves the
 * columns OpenCode fills later (or never, for a local session) to their NULL default.
 */
export type SessionRow = Omit<SessionTable, 'workspace_id' | 'share_url' | 'summary_diffs' | 'time_compacting'>

/** Everything one session wrote; flushed to the database when the session ends. */
export interface SessionRows {
  session: SessionRow
  messages: MessageTable[]
  parts: PartTable[]
  events: EventTable[]
  /** `event_sequence.seq`: the last seq used, or -1 when the session has no events. */
  lastSeq: number
  todos: TodoTable[]
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
