import type { SqliteDb } from '../lib/sqlite.js'
import type { PlanOutcome, Redaction, ScannedEvent } from './event-compaction-v1.plan.js'
import { planSessionCompaction } from './event-compaction-v1.plan.js'
import { applyRedactions, listEventLogSessions, newestStillThere, scanSessionEvents, type EventLogSession } from './event-compaction-v1.store.js'

export type { EventLogSession } from './event-compaction-v1.store.js'
export type { PlanOutcome, Redaction, ScannedEvent, SessionCompactionPlan } from './event-compaction-v1.plan.js'
export { CompactionConflict } from './event-compaction-v1.store.js'

/**
 * A generation's event log as compaction sees it: the sessions with events, a paged scan of one
 * session's log, the plan of what a superseded snapshot becomes, and the in-place write. Every
 * method runs inside the caller's read or write transaction.
 */
export interface EventCompactionStore {
  listSessions(db: SqliteDb, sessionIDs?: readonly string[]): EventLogSession[]
  scan(db: SqliteDb, sessionID: string, afterSeq: number, limit: number): ScannedEvent[]
  plan(sessionID: string, rows: readonly ScannedEvent[]): PlanOutcome
  /** False when any of the newest snapshots the plan keeps is gone or changed (the log moved on). */
  newestStillThere(db: SqliteDb, sessionID: string, ids: readonly string[]): boolean
  apply(db: SqliteDb, sessionID: string, batch: readonly Redaction[]): { before: number; after: number }
}

/** What a generation offers compaction: a log to compact, or why there is nothing to do (null: it says nothing). */
export interface EventCompactionRole {
  log: EventCompactionStore | null
  note: string | null
}

/** The 1.x event log's compaction role; none when the file has no event log. */
export function createV1EventCompaction(hasEventLog: boolean): EventCompactionRole {
  if (!hasEventLog) return { log: null, note: null }
  return {
    log: { listSessions: listEventLogSessions, scan: scanSessionEvents, plan: planSessionCompaction, newestStillThere, apply: applyRedactions },
    note: null,
  }
}
