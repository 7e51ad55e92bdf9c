/** OpenCode 1.x tables as better-sqlite3 returns them (opencode-1.18.33-schema.sql). Times are epoch ms. */
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
  metadata: string | null
  cost: number
  tokens_input: number
  tokens_output: number
  tokens_reasoning: number
  tokens_cache_read: number
  tokens_cache_write: number
  revert: string | null
  agent: string | null
  model: string | null
  time_created: number
  time_updated: number
  time_compacting: number | null
  time_archived: number | null
}

export interface MessageTable {
  id: string
  session_id: string
  time_created: number
  time_updated: number
  /** Message info JSON without `id` and `sessionID`. */
  data: string
}

export interface PartTable {
  id: string
  message_id: string
  session_id: string
  time_created: number
  time_updated: number
  /** Part JSON without `id`, `sessionID` and `messageID`. */
  data: string
}

export interface EventSequenceTable {
  aggregate_id: string
  /** The last seq used for the aggregate. */
  seq: number
  owner_id: string | null
}

export interface EventTable {
  id: string
  aggregate_id: string
  seq: number
  type: string
  data: string
}

export interface ProjectTable {
  id: string
  worktree: string
  vcs: string | null
  name: string | null
  time_created: number
  time_updated: number
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

export interface OpenCodeV1DB {
  session: SessionTable
  message: MessageTable
  part: PartTable
  event: EventTable
  event_sequence: EventSequenceTable
  project: ProjectTable
  session_message: SessionMessageTable
}
