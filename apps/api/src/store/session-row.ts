import { parseCanonicalObject, type CanonicalObject, type JsonObject, type SessionTable, type StorageGeneration } from '@loupe/domain'
import type { SessionRecord } from './opencode-store.js'

/** JSON text to an object, or null for NULL, malformed text or non-objects. */
export function parseObject(text: string | null | undefined): JsonObject | null {
  if (!text) return null
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null
  } catch {
    return null
  }
}

/** Below this many characters, serializing the parsed value is as quick as reading the text canonically. */
const CANONICAL_TEXT_CHARS = 4096

/** `parseObject`, plus (when asked, and the text is long) its members' canonical pieces read off the text. */
export function parseObjectCanonical(text: string | null | undefined, canonical: boolean): { value: JsonObject | null; canonical: CanonicalObject | null } {
  if (!canonical || !text || text.length < CANONICAL_TEXT_CHARS) return { value: parseObject(text), canonical: null }
  return parseCanonicalObject(text)
}

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
