import { compileIndexTerms, indexTokens, MIN_INNER_WORD_CHARS, type ParsedQuery } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { buildMatch, type FtsMatch } from '../../index/fts-query.js'
import { newestIdAt, oldestIdAt } from '../../index/doc-id.js'
import { countMatches, countTermDocs, expandSubstring, pageDocs, rankCandidates, rankDiscountingExpansions } from '../../index/search-index.store.js'
import type { SearchSnapshot } from '../../index/snapshots.js'
import type { SqliteDb } from '../../lib/sqlite.js'
import type { ResolvedScope, SearchHit } from './history-scope.js'

/** Ranked answers rank at most this many of the newest matches (a common word stays fast). */
export const CANDIDATE_CAP = 2000
/** A word found in fewer documents than this is also looked for inside code tokens. */
const RARE_WORD_DOCS = 50
const EXPANSIONS_PER_WORD = 16

/** When the whole words of a query find fewer documents than this, common words reach into code tokens too. */
const FEW_MATCHES = 20

/**
 * The MATCH for a query: every word that is rare as a whole token also matches the code tokens
 * containing it (`1137` → `pr1137`), through the trigram vocabulary. `widen`, when some word was
 * left whole because it is common, gives the MATCH in which those words reach into code tokens
 * too, from the same document counts.
 */
export function matchFor(db: SqliteDb, query: ParsedQuery, scope: ResolvedScope): { match: FtsMatch | null; widen: (() => FtsMatch | null) | null } {
  const expansions = new Map<number, string[]>()
  const common: Array<[number, string]> = []
  // Whether some positive term can match as itself (not only through code-token alternatives).
  let literal = false
  const expand = (into: Map<number, string[]>, i: number, token: string) => {
    const found = expandSubstring(db, token, EXPANSIONS_PER_WORD)
    if (found.terms.length) into.set(i, found.terms)
  }
  query.terms.forEach((term, i) => {
    if (term.negated) return
    const tokens = indexTokens(term.text)
    if (term.kind !== 'word' || tokens.length !== 1 || [...tokens[0]!].length < MIN_INNER_WORD_CHARS) {
      literal = true
      return
    }
    const docs = countTermDocs(db, tokens[0]!, RARE_WORD_DOCS)
    if (docs > 0) literal = true
    if (docs >= RARE_WORD_DOCS) common.push([i, tokens[0]!])
    else expand(expansions, i, tokens[0]!)
  })
  const build = (alternatives: ReadonlyMap<number, readonly string[]>) => {
    const match = buildMatch(query, scope.match, alternatives)
    // Words found nowhere as themselves (`1137` → `pr1137`): the alternatives are all there is, so
    // plain bm25 ranks them and the discounting pass is skipped.
    if (match && !literal) match.expansions = null
    return match
  }
  const widen = () => {
    const wider = new Map(expansions)
    for (const [i, token] of common) expand(wider, i, token)
    return build(wider)
  }
  return { match: build(expansions), widen: common.length ? widen : null }
}

/** The document ids a search covers: its date filters, and nothing newer than `horizon` (ids run newest first). */
export function idRange(scope: ResolvedScope, horizon: number): { min: number; max: number } {
  const max = scope.since !== null ? oldestIdAt(scope.since) : Number.MAX_SAFE_INTEGER
  return { min: Math.max(scope.until !== null ? newestIdAt(scope.until) : 0, horizon), max }
}

/**
 * The MATCH a search and its clean-up run. Common words match whole tokens only, so prose that
 * says `timeout` is not buried under every `setTimeout`; but when the whole words find few
 * documents (`timeout -proxy` found none where scanning had found `setTimeout`), they reach into
 * code tokens as rare words do.
 */
export function searchMatch(db: SqliteDb, query: ParsedQuery, scope: ResolvedScope, horizon: number): FtsMatch | null {
  const { match, widen } = matchFor(db, query, scope)
  if (!match || !widen || countMatches(db, match.match, idRange(scope, horizon), FEW_MATCHES) >= FEW_MATCHES) return match
  return widen()
}

/** Rank a query's candidates once, for a first page; later pages slice the snapshot. */
export function rankSnapshot(db: SqliteDb, match: FtsMatch, scope: ResolvedScope, horizon: number): SearchSnapshot {
  const { min, max } = idRange(scope, horizon)
  const ranked = match.expansions
    ? rankDiscountingExpansions(db, match.match, match.expansions, { min, max }, CANDIDATE_CAP)
    : rankCandidates(db, match.match, { min, max }, CANDIDATE_CAP)
  return { ...ranked, match: match.match, snippets: { terms: compileIndexTerms(match.terms), highlight: match.highlight, anyTerm: match.anyTerm }, horizon }
}

/**
 * Fill a page from `offset`: each candidate is re-checked (still indexed, still matching, not
 * behind a staged revert, session still present), so concurrent indexing or a prune can only
 * remove hits from later pages, never duplicate or reorder them.
 */
export function pageFromSnapshot(deps: Pick<AppDeps, 'opencode'>, db: SqliteDb, snapshot: SearchSnapshot, scope: ResolvedScope, offset: number, limit: number) {
  const hits: SearchHit[] = []
  let at = offset
  while (hits.length < limit && at < snapshot.ids.length) {
    // Usually the page itself; another batch only when some candidates dropped out (pruned, reverted).
    const batch = snapshot.ids.slice(at, at + limit - hits.length)
    const docs = pageDocs(db, snapshot.snippets, batch)
    const heads = deps.opencode.db.read(() => scope.sources.heads(deps.opencode.db, [...docs.values()].map(({ meta: m }) => `${m.gen}:${m.session_id}`)))
    for (const id of batch) {
      const rank = snapshot.ranks[at]!
      at++
      const page = docs.get(id)
      if (!page) continue
      const { meta: doc, snippet } = page
      const key = `${doc.gen}:${doc.session_id}`
      const head = heads.get(key)
      if (!head || (head.revertFrom && doc.message_id && doc.message_id >= head.revertFrom)) continue
      const hit: SearchHit = {
        sessionID: doc.session_id, storage: doc.gen, sessionTitle: head.title, sessionDirectory: head.directory, messageID: doc.message_id || null,
        kind: doc.kind, snippet, score: -rank, time: doc.time,
      }
      if (doc.tool) hit.tool = doc.tool
      Object.assign(hit, scope.sources.of(doc.gen)?.locate(doc.part_key))
      hits.push(hit)
      if (hits.length === limit) break
    }
  }
  return { hits, next: at }
}
