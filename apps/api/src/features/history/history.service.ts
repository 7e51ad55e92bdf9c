import { decodeCursor, encodeCursor, hasPositiveTerm, parseQuery, searchHint, type ParsedQuery } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import { INDEX_SCHEMA_VERSION } from '../../index/index-db.js'
import type { IndexState } from '../../index/indexer.js'
import { indexedTools, newestDocId } from '../../index/search-index.store.js'
import { pageFromSnapshot, rankSnapshot, searchMatch } from './index-search.js'
import { resolveScope, type HistoryDeps, type ResolvedScope, type SearchHit } from './history-scope.js'
import { SCAN_LIMITS, scanPage, scanProgress, startScan, type ScanPosition } from './literal-scan.js'
import type { SearchInput } from './history.schema.js'
import { storageSchema } from '../../store/session-ids.schema.js'

/** `v`: the sidecar's schema version, which fixes what `h` and `id` mean (doc-id.ts). */
type IndexCursor = { m: 'i'; v: number; s: string; o: number; h: number; id: number }
type ScanCursor = { m: 's'; p: ScanPosition }
type HistoryCursor = IndexCursor | ScanCursor

const isPosition = (p: unknown): p is ScanPosition => {
  const s = p as ScanPosition
  return typeof s === 'object' && s !== null && (['titles', 'done', ...storageSchema.options] as string[]).includes(s.phase) &&
    [s.after, s.h1, s.h2].every((n) => Number.isSafeInteger(n) && n >= 0) &&
    (s.title === undefined || (typeof s.title === 'string' && s.title.length <= 300))
}
const isCursor = (p: unknown): p is HistoryCursor => {
  const c = p as Record<string, unknown>
  if (typeof c !== 'object' || c === null) return false
  if (c.m === 's') return isPosition(c.p)
  return c.m === 'i' && typeof c.s === 'string' && c.s.length <= 64 && [c.v, c.o, c.h, c.id].every((n) => Number.isSafeInteger(n) && (n as number) >= 0)
}

export interface SearchAnswer {
  hits: SearchHit[]
  cursor: string | null
  /** `index`: ranked by the full-text index; `scan`: the literal fallback, in storage order. */
  mode: 'index' | 'scan'
  /** Only the newest matches were ranked (a very common word); refine the query to see older ones. */
  truncated: boolean
  /** The query was longer than Loupe searches; the rest was ignored. */
  queryTruncated: boolean
  /** Ranked candidates in this answer (index mode), for "N results". */
  total: number | null
  /** Rows the literal scan read for this page, and where it stands. */
  /** The literal scan's page: rows read, whether it is over, and how far through history it is (0–1). */
  scan: { scanned: number; done: boolean; progress: number } | null
  index: { state: IndexState; indexedParts: number; totalParts: number }
  notice: string | null
}

/**
 * `history.search`: ranked full-text search over all history through the sidecar index, or the
 * bounded literal scan while the index is being built. Cursors are bound to query and scope.
 */
export function search(deps: HistoryDeps, input: SearchInput): SearchAnswer {
  const query = parseQuery(input.query)
  const status = deps.searchIndex.status()
  const base: SearchAnswer = {
    hits: [], cursor: null, mode: 'index', truncated: false, queryTruncated: query.truncated, total: null, scan: null,
    index: { state: status.state, indexedParts: status.indexedParts, totalParts: status.totalParts }, notice: null,
  }
  const scope = resolveScope(deps, input, query)
  if (!hasPositiveTerm(query)) {
    return { ...base, notice: searchHint(input.query, query, { found: 0, mode: 'index' }) }
  }
  const limit = input.limit ?? 20
  let cursor: HistoryCursor | undefined
  if (input.cursor) {
    const decoded = decodeCursor(input.cursor, 'history', scope.binding, isCursor)
    if (!decoded.ok) {
      throw new AppError(decoded.error === 'conflict' ? 'conflict' : 'invalid_cursor',
        decoded.error === 'conflict' ? 'This cursor belongs to another search; start from the first page.' : 'Malformed search cursor.')
    }
    cursor = decoded.value
    // A page left open across an upgrade that changed what ids mean: its horizon would hide everything.
    if (cursor.m === 'i' && cursor.v !== INDEX_SCHEMA_VERSION) {
      throw new AppError('conflict', 'This cursor comes from an older search index; start from the first page.')
    }
  }
  const db = deps.searchIndex.db
  if (cursor?.m === 's' || (!cursor && (status.state !== 'ready' || !db))) {
    return scanAnswer(deps, query, scope, base, cursor?.m === 's' ? cursor.p : undefined, limit)
  }
  if (!db) throw new AppError('unavailable', 'The search index is not available; search again to scan instead.')
  return indexAnswer(deps, query, scope, base, cursor as IndexCursor | undefined, limit)
}

function indexAnswer(deps: HistoryDeps, query: ParsedQuery, scope: ResolvedScope, base: SearchAnswer, cursor: IndexCursor | undefined, limit: number): SearchAnswer {
  const db = deps.searchIndex.db!
  let snapshot = cursor ? deps.searchIndex.snapshots.get(cursor.s) : undefined
  let snapshotId = cursor?.s
  let offset = cursor?.o ?? 0
  if (!snapshot) {
    // One horizon for the MATCH's document counts and the ranking, read once.
    const horizon = cursor?.h ?? newestDocId(db)
    const match = searchMatch(db, query, scope, horizon)
    if (!match) return base
    snapshot = rankSnapshot(db, match, scope, horizon)
    if (cursor) {
      // Evicted: re-rank under the same horizon and continue after the last hit returned.
      const last = snapshot.ids.indexOf(cursor.id)
      offset = last >= 0 ? last + 1 : Math.min(cursor.o, snapshot.ids.length)
    }
    snapshotId = deps.searchIndex.snapshots.put(snapshot)
  }
  const page = pageFromSnapshot(deps, db, snapshot, scope, offset, limit)
  const lastId = snapshot.ids[page.next - 1] ?? 0
  const next: IndexCursor = { m: 'i', v: INDEX_SCHEMA_VERSION, s: snapshotId!, o: page.next, h: snapshot.horizon, id: lastId }
  return {
    ...base,
    hits: page.hits,
    cursor: page.next < snapshot.ids.length ? encodeCursor('history', scope.binding, next) : null,
    truncated: snapshot.truncated,
    total: snapshot.ids.length,
  }
}

/**
 * `history.tools`: the tools history holds calls of, most used first, for the tool filter; null
 * while the index is not ready (the filter offers OpenCode's own tools meanwhile).
 */
export function indexedToolList(deps: Pick<AppDeps, 'searchIndex'>): { tools: Array<{ name: string; docs: number }> | null } {
  const db = deps.searchIndex.db
  if (!db || deps.searchIndex.status().state !== 'ready') return { tools: null }
  return { tools: indexedTools(db).sort((a, b) => b.docs - a.docs || (a.name < b.name ? -1 : 1)) }
}

function scanAnswer(deps: HistoryDeps, query: ParsedQuery, scope: ResolvedScope, base: SearchAnswer, from: ScanPosition | undefined, limit: number): SearchAnswer {
  const start = from ?? deps.opencode.db.read(() => startScan(deps.opencode.db, scope))
  const page = scanPage(deps, query, scope, start, Math.min(limit, SCAN_LIMITS.hits))
  // The hits' sessions only, as the index's pages read them (a page never reads every session).
  const heads = deps.opencode.db.read(() => scope.sources.heads(deps.opencode.db, page.hits.map((h) => `${h.storage}:${h.sessionID}`)))
  const hits = page.hits.map((h) => {
    const head = heads.get(`${h.storage}:${h.sessionID}`)
    return { ...h, sessionTitle: head?.title ?? '', sessionDirectory: head?.directory ?? '' }
  })
  const done = page.position.phase === 'done'
  return {
    ...base,
    mode: 'scan',
    hits,
    cursor: done ? null : encodeCursor('history', scope.binding, { m: 's', p: page.position } satisfies ScanCursor),
    scan: { scanned: page.scanned, done, progress: done ? 1 : scanProgress(scope.sources, page.position) },
    notice: base.index.state === 'building'
      ? 'The search index is still being built; these are literal matches in storage order, one page at a time.'
      : base.index.state === 'unavailable' ? 'Full-text search is unavailable here; these are literal matches in storage order.' : null,
  }
}
