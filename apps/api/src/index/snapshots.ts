import type { SnippetQuery } from './window-snippets.js'
import { randomBytes } from 'node:crypto'

/** One ranked answer, kept so later pages slice it instead of re-ranking a changing index. */
export interface SearchSnapshot {
  ids: number[]
  /** Ranks of `ids` (lower is better). */
  ranks: number[]
  truncated: boolean
  match: string
  /** What a page's snippets are cut and marked with. */
  snippets: SnippetQuery
  /** The newest document's id (the smallest, doc-id.ts) when the answer was ranked. */
  horizon: number
}

export interface SnapshotCache {
  put(snapshot: SearchSnapshot): string
  get(id: string): SearchSnapshot | undefined
  clear(): void
}

/**
 * A small LRU of ranked answers (32 entries, 10 minutes). Paging from a snapshot has no duplicates
 * or gaps however the index changes meanwhile; an evicted snapshot is re-ranked under the cursor's
 * horizon instead.
 */
export function createSnapshotCache(capacity = 32, ttlMs = 10 * 60_000, now: () => number = Date.now): SnapshotCache {
  const entries = new Map<string, { snapshot: SearchSnapshot; at: number }>()
  return {
    put(snapshot) {
      const id = randomBytes(9).toString('base64url')
      entries.set(id, { snapshot, at: now() })
      while (entries.size > capacity) entries.delete(entries.keys().next().value!)
      return id
    },
    get(id) {
      const entry = entries.get(id)
      if (!entry) return undefined
      if (now() - entry.at > ttlMs) {
        entries.delete(id)
        return undefined
      }
      entries.delete(id)
      entries.set(id, entry)
      return entry.snapshot
    },
    clear: () => entries.clear(),
  }
}
