// OpenCode 1.x tables (tools/opencode-schema/opencode-1.18.33-schema.sql) as better-sqlite3 returns
// them: stored snake_case names, `T | null` for nullable columns, integers for epoch ms, JSON as
// text. Here, not in the api, because the demo generator writes these rows and may not import the
// api; only the api's store modules read them.

/** `session`: one row per 1.x session (and, in 1.18's experimental mode, per 2.x one). */
export interface SessionTable {
  id: string
  project_id: string
  workspace_id: string | null
  parent_id: string | null
  slug: string
  directory: string
  path: string | null
  title: string
  version: string
  share_url: string | null
  summary_additions: number | null
  summary_deletions: number | null
  summary_files: number | null
  /** JSON FileDiff[]. */
  summary_diffs: string | null
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
  time_compacting: number | null
  time_archived: number | null
}

/** `message`: one row per 1.x message. */
export interface MessageTable {
  id: string
  session_id: string
  time_created: number
  time_updated: number
  /** Message info JSON without `id` and `sessionID`. */
  data: string
}

/** `part`: one row per 1.x part. */
export interface PartTable {
  id: string
  message_id: string
  session_id: string
  time_created: number
  time_updated: number
  /** Part JSON without `id`, `sessionID` and `messageID`. */
  data: string
}

/** `event_sequence`: one row per aggregate (session) with an event log. */
export interface EventSequenceTable {
  aggregate_id: string
  /** The last seq used for the aggregate. */
  seq: number
  owner_id: string | null
}

/** `event`: the 1.x event log. */
export interface EventTable {
  id: string
  aggregate_id: string
  seq: number
  type: string
  data: string
}

/** `project`: one row per worktree OpenCode opened (`global` for none). */
export interface ProjectTable {
  id: string
  worktree: string
  vcs: string | null
  name: string | null
  icon_url: string | null
  icon_url_override: string | null
  icon_color: string | null
  time_created: number
  time_updated: number
  time_initialized: number | null
  /** JSON string[]. */
  sandboxes: string
  commands: string | null
}

/** Pre-launch 2.x rows inside 1.18 (`/api/session`): same columns as the 2.x table. */
export interface SessionMessageTable {
  id: string
  session_id: string
  type: string
  seq: number
  time_created: number
  time_updated: number
  data: string
}

/** `todo`: a session's checklist. */
export interface TodoTable {
  session_id: string
  content: string
  status: string
  priority: string
  position: number
  time_created: number
  time_updated: number
}

/** The 1.x tables, for a Kysely query builder. */
export interface OpenCodeV1DB {
  session: SessionTable
  message: MessageTable
  part: PartTable
  event: EventTable
  event_sequence: EventSequenceTable
  project: ProjectTable
  session_message: SessionMessageTable
  todo: TodoTable
}
