import { compareSessionKeys, type SessionSort, type SortOrder, type StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { createEventLocator } from './event-locator.js'
import { createOpenCodeV1Store } from './opencode-v1.store.js'
import { createOpenCodeV2Store } from './opencode-v2.store.js'
import type { OpenCodeStore, SessionListFilters, SessionListQuery, SessionPageRow, SessionRecord, SessionStats, SessionSums } from './opencode-store.js'
import type { StorageLayout } from './probe.js'
import { createReceiptStore } from './receipts.store.js'
import { createSessionTotals, ensureTotalsTable } from './session-totals.js'
import { createUsageReader, type UsageReader } from './usage-reader.js'

export type * from './opencode-store.js'

/** A position in the newest-first list of every generation's sessions (a list cursor's content). */
export interface SessionListPosition {
  timeUpdated: number
  id: string
  storage: StorageGeneration
}

export type SessionListAcross = Omit<SessionListQuery, 'before'> & { after?: SessionListPosition | undefined }

/** A position in a sorted list of every generation's sessions: the last row's value, id and generation. */
export interface SessionSortPosition {
  value: number
  id: string
  storage: StorageGeneration
}

export interface SessionPageAcross extends SessionListFilters {
  sort: SessionSort
  order: SortOrder
  after?: SessionSortPosition | undefined
  limit: number
}

/** Every generation of the opened file, and the reads that span them. */
export interface OpenCodeStores {
  all: OpenCodeStore[]
  byGeneration: Partial<Record<StorageGeneration, OpenCodeStore>>
  /** Up to `limit` sessions of all generations after `after`, newest first (the 2.x copy first on a tie). */
  listSessions(db: SqliteDb, query: SessionListAcross): SessionRecord[]
  /**
   * Up to `limit` sessions of all generations after `after` in the sort's order (ties by id, then
   * the 2.x copy first when descending), each with its totals. Refreshes the totals first.
   */
  pageSessions(db: SqliteDb, query: SessionPageAcross): SessionPageRow[]
  /** Exact sums over every session of all generations the filters keep. Refreshes the totals first. */
  sumSessions(db: SqliteDb, filters: SessionListFilters): SessionSums
  /** Stats of these sessions, each from its own generation, in the order given. */
  sessionStats(db: SqliteDb, sessions: readonly SessionRecord[]): SessionStats[]
  /** The session with this id in the first generation (probe order) that holds one. */
  findSession(db: SqliteDb, id: string): SessionRecord | undefined
  /** Sessions per project over all generations, among those the filters keep. */
  countByProject(db: SqliteDb, filters: SessionListFilters): Map<string, number>
  /** OpenCode's `project` rows (none when the file has no such table). */
  projects(db: SqliteDb): { id: string; worktree: string; name: string | null }[]
  /** Every generation's usage by day, session and model, kept while the file is unchanged. */
  usage: UsageReader
}

/** Within equal (timeUpdated, id), the 2.x copy sorts first. */
const RANK: Record<StorageGeneration, number> = { v1: 0, v2: 1 }

const compareNewestFirst = (a: SessionRecord, b: SessionRecord): number =>
  b.timeUpdated - a.timeUpdated || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) || RANK[b.storage] - RANK[a.storage]

const EMPTY_STATS: SessionStats = { messages: 0, parts: 0, bytes: { messages: 0, parts: 0, events: 0 } }
const EMPTY_SUMS: SessionSums = { sessions: 0, bytes: 0, tokens: 0, cost: 0 }

/** The stores of one opened file, built once after probing; per-file state (receipts, the event locator, the checked schema) is shared by both. */
export function createStores(layout: StorageLayout): OpenCodeStores {
  const shared = { receipts: createReceiptStore(layout), locator: createEventLocator(), schema: { checkedVersion: null }, totals: createSessionTotals() }
  const all = layout.generations.map((g) => (g.generation === 'v1' ? createOpenCodeV1Store(g, layout, shared) : createOpenCodeV2Store(g, layout, shared)))
  const byGeneration: OpenCodeStores['byGeneration'] = Object.fromEntries(all.map((s) => [s.generation, s]))
  const refreshTotals = (db: SqliteDb) => shared.totals.refresh(db, all.map((s) => s.totalsSource))
  return {
    all,
    byGeneration,
    listSessions(db, { after, ...query }) {
      const found = all.flatMap((store) => {
        const before = after && { timeUpdated: after.timeUpdated, id: after.id, inclusive: RANK[store.generation] < RANK[after.storage] }
        return store.listSessions(db, { ...query, before })
      })
      return found.sort(compareNewestFirst).slice(0, query.limit)
    },
    pageSessions(db, { after, ...query }) {
      refreshTotals(db)
      const found = all.flatMap((store) => {
        const rank = RANK[store.generation]
        const inclusive = after && (query.order === 'desc' ? rank < RANK[after.storage] : rank > RANK[after.storage])
        return store.pageSessions(db, { ...query, after: after && { value: after.value, id: after.id, inclusive: !!inclusive } })
      })
      const key = (row: SessionPageRow) => ({ value: row.sortValue, id: row.record.id, rank: RANK[row.record.storage] })
      return found.sort((a, b) => compareSessionKeys(key(a), key(b), query.order)).slice(0, query.limit)
    },
    sumSessions(db, filters) {
      refreshTotals(db)
      const sums = all.map((store) => store.sumSessions(db, filters))
      return sums.reduce((a, b) => ({ sessions: a.sessions + b.sessions, bytes: a.bytes + b.bytes, tokens: a.tokens + b.tokens, cost: a.cost + b.cost }), EMPTY_SUMS)
    },
    sessionStats(db, sessions) {
      const stats = new Map<string, SessionStats>()
      for (const store of all) {
        const ids = sessions.filter((s) => s.storage === store.generation).map((s) => s.id)
        if (ids.length === 0) continue
        for (const [id, value] of store.sessionStats(db, ids)) stats.set(`${store.generation}:${id}`, value)
      }
      return sessions.map((s) => stats.get(`${s.storage}:${s.id}`) ?? EMPTY_STATS)
    },
    findSession: (db, id) => all.map((s) => s.getSession(db, id)).find(Boolean),
    countByProject(db, filters) {
      ensureTotalsTable(db)
      const counts = new Map<string, number>()
      for (const store of all) {
        for (const [id, n] of store.countByProject(db, filters)) counts.set(id, (counts.get(id) ?? 0) + n)
      }
      return counts
    },
    projects: (db) => (layout.tables.includes('project') ? db.allSql(`SELECT id, worktree, name FROM project`) : []),
    usage: createUsageReader(all.map((s) => s.usage)),
  }
}
