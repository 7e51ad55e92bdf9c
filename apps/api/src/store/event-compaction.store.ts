import type { SqliteDb } from '../lib/sqlite.js'
import type { Redaction, ScannedEvent, SessionPlanner } from './event-compaction-v1.plan.js'
import { createSessionPlanner } from './event-compaction-v1.plan.js'
import { applyRedactions, listEventLogSessions, newestStillThere, scanSessionEvents, type EventLogSession } from './event-compaction-v1.store.js'

export type { EventLogSession } from './event-compaction-v1.store.js'
export type { PlanOutcome, Redaction, ScannedEvent, SessionCompactionPlan, SessionPlanner } from './event-compaction-v1.plan.js'
export { CompactionConflict } from './event-compaction-v1.store.js'

/**
 * A generation's event log as compaction sees it: the sessions with events, a paged scan of one
 * session's log newest first, the planner of what a superseded snapshot becomes (fed that scan, so
 * a session's plan never holds its whole log), and the in-place write. Every
 * method runs inside the caller's read or write transaction.
 */
export interface EventCompactionStore {
  listSessions(db: SqliteDb, sessionIDs?: readonly string[]): EventLogSession[]
  scan(db: SqliteDb, sessionID: string, beforeSeq: number, limit: number): ScannedEvent[]
  planner(sessionID: string): SessionPlanner
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
    log: { listSessions: listEventLogSessions, scan: scanSessionEvents, planner: createSessionPlanner, newestStillThere, apply: applyRedactions },
    note: null,
  }
}
