import { createHash } from 'node:crypto'
import { indexTerms, type IndexTerm, type ParsedQuery, type QueryTerm, type SearchKind, type StorageGeneration } from '@loupe/domain'

/** FTS5 columns, in table order; `meta` holds filter tokens and is never matched by user text. */
export const FTS_COLUMNS = ['title', 'body', 'tool', 'input', 'output', 'meta'] as const
/** bm25 weights per column: a hit in a title or text outranks one in a 40 KB tool dump. */
export const FTS_WEIGHTS = [8, 6, 3, 1.5, 1, 0] as const
/** The columns user text is matched in (all but `meta`), and the same as an FTS5 column filter. */
export const USER_FTS_COLUMNS = FTS_COLUMNS.filter((c) => c !== 'meta')
export const USER_COLUMNS = `{${USER_FTS_COLUMNS.join(' ')}}`

const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex')
/** 64 bits of SHA-256: ids differing only in case stay apart; two of a million sessions share one with odds of about 1 in 37 million. */
const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)

/**
 * Filter tokens, one unicode61 token each (letters and digits only), so a scope is a cheap
 * index lookup ANDed into the match instead of a post-filter that would break the candidate cap.
 * Every document carries its session's three, so they are kept short: hex of the ids made them
 * ~200 characters a document, and the benchmark's sidecar 20 MB larger (353 MB against 333).
 */
export const metaToken = {
  kind: (kind: SearchKind) => `zk${kind}`,
  tool: (tool: string) => `zt${hex(tool.slice(0, 64))}`,
  session: (storage: StorageGeneration, id: string) => `zs${storage}${digest(id)}`,
  project: (id: string) => `zp${digest(id)}`,
  directory: (dir: string) => `zd${digest(dir)}`,
} as const

export interface MetaFields {
  kind: SearchKind
  tool: string | null
  storage: StorageGeneration
  sessionID: string
  projectID: string
  directory: string
}

/** The `meta` column of one document. */
export function metaText(m: MetaFields): string {
  const tokens = [metaToken.kind(m.kind), metaToken.session(m.storage, m.sessionID), metaToken.project(m.projectID), metaToken.directory(m.directory)]
  if (m.tool) tokens.push(metaToken.tool(m.tool))
  return tokens.join(' ')
}

export interface MatchScope {
  kinds?: readonly SearchKind[] | undefined
  tool?: string | undefined
  /** A session, in each generation its id may belong to. */
  session?: { storages: readonly StorageGeneration[]; id: string } | undefined
  projectID?: string | undefined
  directory?: string | undefined
}

/** A string literal in FTS5 syntax: every user term is quoted, so no text is ever an operator. */
export const quote = (text: string) => `"${text.replace(/"/g, '""')}"`

function termExpr(term: QueryTerm, expansions: readonly string[] = []): string {
  if (term.kind === 'prefix') return `${quote(term.text)}*`
  if (term.kind === 'phrase' || expansions.length === 0) return quote(term.text)
  return `(${[term.text, ...expansions].map(quote).join(' OR ')})`
}

function scopeExprs(scope: MatchScope): string[] {
  const out: string[] = []
  const any = (tokens: string[]) => `{meta}: (${tokens.map(quote).join(' OR ')})`
  if (scope.kinds?.length) out.push(any(scope.kinds.map(metaToken.kind)))
  if (scope.tool) out.push(any([metaToken.tool(scope.tool)]))
  if (scope.session) {
    const { id, storages } = scope.session
    out.push(any(storages.map((s) => metaToken.session(s, id))))
  }
  if (scope.projectID) out.push(any([metaToken.project(scope.projectID)]))
  if (scope.directory) out.push(any([metaToken.directory(scope.directory)]))
  return out
}

export interface FtsMatch {
  /** The full expression: user terms, scope filters, exclusions. */
  match: string
  /** User terms only: what snippets highlight. */
  highlight: string
  /** Any one of the user's terms, unscoped: what a window of a document is marked with (window-snippets.ts). */
  anyTerm: string
  /** The same terms for snippets cut in JS. */
  terms: IndexTerm[]
  /** The code-token alternatives of rare words alone, or null: ranking discounts their share of bm25. */
  expansions: string | null
}

/**
 * Build the FTS5 MATCH for a parsed query. `expansions[i]` are vocabulary tokens containing
 * word i (the substring path). Null when nothing positive is left to search for.
 */
export function buildMatch(query: ParsedQuery, scope: MatchScope = {}, expansions: ReadonlyMap<number, readonly string[]> = new Map()): FtsMatch | null {
  const positive: string[] = []
  const negative: string[] = []
  const alternatives: string[] = []
  query.terms.forEach((term, i) => {
    ;(term.negated ? negative : positive).push(termExpr(term, expansions.get(i)))
    if (!term.negated && term.kind === 'word') alternatives.push(...(expansions.get(i) ?? []))
  })
  if (positive.length === 0) return null
  const user = `${USER_COLUMNS}: (${positive.join(' AND ')})`
  let match = [user, ...scopeExprs(scope)].map((e) => `(${e})`).join(' AND ')
  for (const n of negative) match = `(${match}) NOT (${USER_COLUMNS}: (${n}))`
  return { match, highlight: user, anyTerm: positive.join(' OR '), terms: indexTerms(query, expansions), expansions: alternatives.length ? `${USER_COLUMNS}: (${alternatives.map(quote).join(' OR ')})` : null }
}
