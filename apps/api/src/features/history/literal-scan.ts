import { compileLiteralMatcher, excerptSegments, foldText, type LiteralMatcher, type ParsedQuery, type SearchFields } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { titleDoc, v1Doc, v2Docs, NO_SCOPE } from '../../index/index-docs.js'
import type { DocInput } from '../../index/index-writer.js'
import type { SourceSession, V1PartRow, V2MessageRow } from '../../index/opencode-source.js'
import type { ResolvedScope, SearchHit } from './history-scope.js'

/** The design's bounds for a page of the literal scan. */
export const SCAN_LIMITS = { hits: 32, ms: 40, rows: 32 } as const

/** Where a scan stands: phase, the last rowid read, and the horizons fixed on the first page. */
export interface ScanPosition {
  phase: 'titles' | 'v1' | 'v2' | 'done'
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
export function startScan(scope: ResolvedScope): ScanPosition {
  const totals = scope.source.totals()
  return { phase: 'titles', after: 0, h1: totals.v1Max, h2: totals.v2Max }
}

/** A scan hit; its session's title and directory are filled in per page by the answer (`sessionHeads`). */
function toHit(doc: DocInput, matcher: LiteralMatcher): SearchHit {
  // The field with a match; else (the match is in the tool's name, or a phrase spans two fields)
  // the first field with any text, so the snippet is never empty.
  const field = FIELDS.find((f) => doc.fields[f] && matcher.ranges(doc.fields[f].slice(0, 64 * 1024)).length > 0) ??
    FIELDS.find((f) => doc.fields[f]) ?? 'body'
  const hit: SearchHit = {
    sessionID: doc.sessionID, storage: doc.gen, sessionTitle: '', sessionDirectory: '', messageID: doc.messageID || null,
    kind: doc.fields.kind, snippet: excerptSegments(doc.fields[field], matcher), score: 0, time: doc.time,
  }
  if (doc.fields.tool) hit.tool = doc.fields.tool
  if (doc.gen === 'v1' && doc.partKey !== '#title') hit.partID = doc.partKey
  if (doc.gen === 'v2' && /^\d+$/.test(doc.partKey)) hit.index = Number(doc.partKey)
  return hit
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
 * order (titles, then 1.x parts, then 2.x messages), a case- and accent-insensitive match, no
 * ranking. It stops at 32 hits or after about 40 ms, reading 32 rows at a time.
 */
export function scanPage(deps: AppDeps, query: ParsedQuery, scope: ResolvedScope, from: ScanPosition, maxHits: number, budgetMs: number = SCAN_LIMITS.ms): ScanPage {
  const matcher = compileLiteralMatcher(query)
  const { source } = scope
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
    if (matcher.test(foldText([f.title, f.body, f.tool ?? '', f.input, f.output].join('\n')))) hits.push(toHit(doc, matcher))
  }
  deps.opencode.db.read(() => {
    // A page reads at least one row past the titles, however long they took: on a loaded machine a
    // page that spent its budget on titles alone would move the scan nowhere (CI saw one).
    while (position.phase !== 'done' && hits.length < maxHits && (scanned === 0 || performance.now() - t0 < budgetMs)) {
      if (position.phase === 'titles') {
        // Titles are short: all of them take a few ms, so only the hits bound this phase's page (the
        // time budget would stop a page of 20,000 sessions after the read, one title in).
        if (scanTitles(source.sessions(), position, consider, () => hits.length >= maxHits)) continue
        position.phase = source.generations.v1 ? 'v1' : source.generations.v2 ? 'v2' : 'done'
        delete position.title
        continue
      }
      const v1 = position.phase === 'v1'
      const horizon = v1 ? position.h1 : position.h2
      const rows: Array<V1PartRow | V2MessageRow> = v1 ? source.v1Chunk(position.after, SCAN_LIMITS.rows) : source.v2Chunk(position.after, SCAN_LIMITS.rows)
      const visible = rows.filter((r) => r.rid <= horizon)
      for (const row of visible) {
        scanned++
        if (v1) {
          const doc = v1Doc(row as V1PartRow, NO_SCOPE)
          if (doc) consider(doc)
        } else for (const doc of v2Docs(row as V2MessageRow, NO_SCOPE)) consider(doc)
        position.after = row.rid
        if (hits.length >= maxHits || performance.now() - t0 >= budgetMs) break
      }
      if (visible.length === 0 || position.after >= horizon) {
        position.phase = v1 && source.generations.v2 ? 'v2' : 'done'
        position.after = 0
      }
    }
  })
  return { hits, position, scanned }
}
