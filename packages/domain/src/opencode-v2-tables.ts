// OpenCode 2.x tables (tools/opencode-schema/opencode-2x-schema.sql), with the conventions of
// opencode-v1-tables.ts.
import type { EventSequenceTable, ProjectTable, SessionMessageTable, SessionTable } from './opencode-v1-tables.js'

/** `session_v2`: the 1.x columns (title nullable) plus the 2.x run-state columns. */
export interface SessionV2Table extends Omit<SessionTable, 'title'> {
  title: string | null
  fork_session_id: string | null
  fork_boundary: string | null
  time_idle: number | null
  time_viewed: number | null
  idle_outcome: string | null
  /** The execution-claim timestamp despite its name (opencode-storage.md §9.7). */
  time_suspended: number | null
  resume_attempts: number
}

/** The 2.x `event` log. */
export interface EventV2Table {
  id: string
  aggregate_id: string
  seq: number
  type: string
  data: string
  /** Part of 2.x replay equality: never change it. */
  created: number
}

/** `kv`: OpenCode's key-value rows (Loupe keeps its 2.x prune receipts here). */
export interface KvTable {
  key: string
  /** JSON text. */
  value: string
  time_created: number
  time_updated: number
}

/** The 2.x tables, for a Kysely query builder. */
export interface OpenCodeV2DB {
  session_v2: SessionV2Table
  /** In 1.18's experimental mode the 2.x rows hang off the 1.x `session` table. */
  session: SessionTable
  session_message: SessionMessageTable
  event: EventV2Table
  event_sequence: EventSequenceTable
  kv: KvTable
  project: ProjectTable
}
