import type { SessionTable, StorageGeneration } from '@loupe/domain'
import { parseObject } from './parse-object.js'
import type { SessionRecord } from './opencode-store.js'

type SessionRowLike = Omit<SessionTable, 'title'> & { title: string | null; time_suspended?: number | null }

export function toSessionRecord(storage: StorageGeneration, row: SessionRowLike): SessionRecord {
  return {
    storage,
    id: row.id,
    title: row.title ?? '',
    slug: row.slug ?? null,
    directory: row.directory,
    projectID: row.project_id,
    parentID: row.parent_id,
    workspaceID: row.workspace_id ?? null,
    version: row.version,
    metadata: parseObject(row.metadata),
    revert: parseObject(row.revert),
    agent: row.agent ?? null,
    cost: row.cost ?? 0,
    tokens: {
      input: row.tokens_input ?? 0,
      output: row.tokens_output ?? 0,
      reasoning: row.tokens_reasoning ?? 0,
      cacheRead: row.tokens_cache_read ?? 0,
      cacheWrite: row.tokens_cache_write ?? 0,
    },
    timeCreated: row.time_created,
    timeUpdated: row.time_updated,
    timeArchived: row.time_archived,
    timeCompacting: row.time_compacting ?? null,
    timeSuspended: row.time_suspended ?? null,
  }
}

/** Chunk ids below SQLite's variable limit (32766 in better-sqlite3's build). */
export function chunk<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}
