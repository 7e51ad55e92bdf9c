import Database from 'better-sqlite3'
import type { SqliteDb } from '../../lib/sqlite.js'
import type { EventCompactionStore, PlanOutcome, ScannedEvent } from '../../store/event-compaction.store.js'

const SCAN_ROWS = 2000

/**
 * The session's plan from its whole log, read newest first in pages, each its own read transaction:
 * each page goes to the planner and is dropped. A snapshot that is not JSON answers a reason. The
 * write checks that the newest snapshots the plan relies on are still there, so pages read apart
 * cannot let a plan outlive the log it was made from.
 */
export function planSessionLog(db: SqliteDb, log: EventCompactionStore, sessionID: string): PlanOutcome | string {
  const planner = log.planner(sessionID)
  for (let before = Number.MAX_SAFE_INTEGER; ; ) {
    let page: ScannedEvent[]
    try {
      page = db.read(() => log.scan(db, sessionID, before, SCAN_ROWS))
    } catch (error) {
      if (error instanceof Database.SqliteError && /JSON/i.test(error.message)) return 'An event of this session is not valid JSON; nothing in it was changed.'
      throw error
    }
    for (const row of page) planner.add(row)
    if (page.length < SCAN_ROWS) return planner.finish()
    before = page[page.length - 1]!.seq
  }
}
