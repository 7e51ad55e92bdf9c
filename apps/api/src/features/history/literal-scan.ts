import { compileLiteralMatcher, excerptSegments, foldText, type LiteralMatcher, type ParsedQuery, type SearchFields, type StorageGeneration } from '@loupe/domain'
import { titleDoc } from '../../index/index-docs.js'
import type { SqliteDb } from '../../lib/sqlite.js'
import { NO_SCOPE, type DocInput, type SourceSession } from '../../store/index-source.js'
import type { IndexSources } from '../../store/index-sources.js'
import type { HistoryDeps, ResolvedScope, SearchHit } from './history-scope.js'

/** The design's bounds for a page of the literal scan. */
export const SCAN_LIMITS = { hits: 32, ms: 40, rows: 32 } as const

/**
 * Where a scan stands: the phase (titles, then each source by its `gen`, then done), the last rowid
 * read, and each source's horizon (`cursorKeys.horizon`), fixed on the first page.
 */
export interface ScanPosition {
  phase: 'titles' | StorageGeneration | 'done'
  after: number
  h1: number
  h2: number
  /** In the titles phase: the last session passed (`gen:id`, in that order). */
  title?: string
}

export interface ScanPage {
  hits: SearchHit[]
  position: ScanPosition
  scanned: number
}

const FIELDS: Array<keyof Pick<SearchFields, 'title' | 'body' | 'input' | 'output'>> = ['title', 'body', 'input', 'output']

/** The first scan position: horizons are today's last rows, so rows added later are not visited. */
export function startScan(db: SqliteDb, scope: ResolvedScope): ScanPosition {
  const position: ScanPosition = { phase: 'titles', after: 0, h1: 0, h2: 0 }
  for (const source of scope.sources.all) position[source.cursorKeys.horizon] = source.lastRowid(db)
  return position
}

/** How far a scan is through the rows it will visit (row ids stand in for row counts). */
export function scanProgress(sources: IndexSources, p: ScanPosition): number {
  const at = sources.order(p.phase)
  let total = 0
  let read = p.after
  sources.all.forEach((source, i) => {
    const horizon = p[source.cursorKeys.horizon]
    total += horizon
    if (i < at) read += horizon
  })
  if (total === 0 || at < 0) return 0
  return Math.min(1, read / total)
}

/** A scan hit; its session's title and directory are filled in per page by the answer (`IndexSources.heads`). */
function toHit(sources: IndexSources, doc: DocInput, matcher: LiteralMatcher): SearchHit {
  // The field with a match; else (the match is in the tool's name, or a phrase spans two fields)
  // the first field with any text, so the snippet is never empty.
  const field = FIELDS.find((f) => doc.fields[f] && matcher.ranges(doc.fields[f].slice(0, 64 * 1024)).length > 0) ??
    FIELDS.find((f) => doc.fields[f]) ?? 'body'
  const hit: SearchHit = {
    sessionID: doc.sessionID, storage: doc.gen, sessionTitle: '', sessionDirectory: '', messageID: doc.messageID || null,
    kind: doc.fields.kind, snippet: excerptSegments(doc.fields[field], matcher), score: 0, time: doc.time,
  }
  if (doc.fields.tool) hit.tool = doc.fields.tool
  return Object.assign(hit, sources.of(doc.gen)?.locate(doc.partKey))
}

/**
 * Session titles in `gen:id` order from after `position.title`, until `full()`: a word in a
 * thousand titles fills pages of at most 32 hits, as parts do. True when it stopped early.
 */
function scanTitles(sessions: SourceSession[], position: ScanPosition, consider: (doc: DocInput) => void, full: () => boolean): boolean {
  const keyed = sessions.map((s) => ({ s, key: `${s.gen}:${s.id}` })).filter(({ key }) => position.title === undefined || key > position.title)
  keyed.sort((a, b) => (a.key < b.key ? -1 : 1))
  for (const { s, key } of keyed) {
    const doc = titleDoc(s)
    if (doc) consider(doc)
    position.title = key
    if (full()) return true
  }
  return false
}

/**
 * One page of the literal scan, the honest fallback while the index is not ready: rows in rowid
 * order (titles, then each source's rows: 1.x parts, then 2.x messages), a case- and accent-insensitive match, no
 * ranking. It stops at 32 hits or after about 40 ms, reading 32 rows at a time.
 */
export function scanPage(deps: HistoryDeps, query: ParsedQuery, scope: ResolvedScope, from: ScanPosition, maxHits: number, budgetMs: number = SCAN_LIMITS.ms): ScanPage {
  const matcher = compileLiteralMatcher(query)
  const { sources } = scope
  const db = deps.opencode.db
  const t0 = performance.now()
  const position = { ...from }
  const hits: SearchHit[] = []
  let scanned = 0
  const boundaries = deps.searchIndex.revertBoundaries()
  const consider = (doc: DocInput) => {
    if (scope.sessions && !scope.sessions.has(`${doc.gen}:${doc.sessionID}`)) return
    if (scope.match.kinds && !scope.match.kinds.includes(doc.fields.kind)) return
    if (scope.match.tool && doc.fields.tool !== scope.match.tool) return
    if (scope.since !== null && doc.time < scope.since) return
    if (scope.until !== null && doc.time > scope.until) return
    const boundary = boundaries.get(`${doc.gen}:${doc.sessionID}`)
    if (boundary && doc.messageID && doc.messageID >= boundary) return
    const f = doc.fields
    if (matcher.test(foldText([f.title, f.body, f.tool ?? '', f.input, f.output].join('\n')))) hits.push(toHit(sources, doc, matcher))
  }
  deps.opencode.db.read(() => {
    // A page reads at least one row past the titles, however long they took: on a loaded machine a
    // page that spent its budget on titles alone would move the scan nowhere (CI saw one).
    while (position.phase !== 'done' && hits.length < maxHits && (scanned === 0 || performance.now() - t0 < budgetMs)) {
      if (position.phase === 'titles') {
        // Titles are short: all of them take a few ms, so only the hits bound this phase's page (the
        // time budget would stop a page of 20,000 sessions after the read, one title in).
        if (scanTitles(sources.sessions(db), position, consider, () => hits.length >= maxHits)) continue
        position.phase = (sources.all[0]?.gen ?? 'done')
        delete position.title
        continue
      }
      const source = sources.of(position.phase)
      if (!source) {
        position.phase = 'done'
        break
      }
      const horizon = position[source.cursorKeys.horizon]
      const visible = source.chunk(db, position.after, SCAN_LIMITS.rows).filter((r) => r.rid <= horizon)
      for (const row of visible) {
        scanned++
        source.docs(row, NO_SCOPE, consider)
        position.after = row.rid
        if (hits.length >= maxHits || performance.now() - t0 >= budgetMs) break
      }
      if (visible.length === 0 || position.after >= horizon) {
        position.phase = sources.after(position.phase) as ScanPosition['phase']
        position.after = 0
      }
    }
  })
  return { hits, position, scanned }
}
