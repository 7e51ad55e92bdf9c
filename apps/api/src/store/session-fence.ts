import type { SqliteDb } from '../lib/sqlite.js'
import type { SessionFenceRow } from './prune.store.js'

/**
 * A session's run state for the refusal fences, from its row in `table` (1.x `session`, 2.x
 * `session_v2` or 1.18's experimental `session`) and its `event_sequence` owner. `suspended`: the
 * table has `time_suspended` (2.x); otherwise it reads as null. `twin`: the other generation's session
 * table in this file, where an upgrade keeps a second copy under the same id.
 */
export function readSessionFence(db: SqliteDb, layout: { table: string; suspended: boolean; events: boolean; twin: string | null }, sessionID: string): SessionFenceRow | undefined {
  const row = db.getSql<{ workspace_id: string | null; time_compacting: number | null; revert: string | null; time_suspended: number | null }>(
    `SELECT workspace_id, time_compacting, revert, ${layout.suspended ? 'time_suspended' : 'NULL AS time_suspended'} FROM ${layout.table} WHERE id = ?`,
    [sessionID],
  )
  if (!row) return undefined
  const seq = layout.events ? db.getSql<{ owner_id: string | null }>(`SELECT owner_id FROM event_sequence WHERE aggregate_id = ?`, [sessionID]) : undefined
  return {
    workspaceID: row.workspace_id,
    ownerID: seq?.owner_id ?? null,
    hasSequence: seq !== undefined,
    timeSuspended: row.time_suspended,
    timeCompacting: row.time_compacting,
    revert: row.revert,
    storedTwice: layout.twin !== null && db.getSql(`SELECT 1 AS x FROM ${layout.twin} WHERE id = ?`, [sessionID]) !== undefined,
  }
}
