/** One search term as the user wrote it (control characters removed). */
export interface QueryTerm {
  /** `word` (all must match), `phrase` ("exact words in order"), `prefix` (word*). */
  kind: 'word' | 'phrase' | 'prefix'
  text: string
  /** `-word` / `-"phrase"`: results must not contain it. */
  negated: boolean
}

export interface ParsedQuery {
  terms: QueryTerm[]
  /** The query had more terms or longer terms than searched; the answer says so. */
  truncated: boolean
}

/**
 * Every bound on a query, in one place. `terms`, `termChars` and `inputChars` keep any query cheap
 * to parse and run; the api accepts `inputChars`. `sentChars` is what the web sends: its queries
 * travel in the URL of a GET, and beyond this the server's header limit would refuse them (only
 * `terms` terms are searched anyway).
 */
export const QUERY_LIMITS = { terms: 16, termChars: 200, inputChars: 32 * 1024, sentChars: 2000 } as const

// Unicode 'Cc' and 'Cf' (controls, bidi overrides, zero-width) and our own snippet markers.
const UNSAFE = /[\p{Cc}\p{Cf}\uE000\uE001]/gu
const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu
const DIACRITIC = /\p{M}/gu

/** Remove characters that must never reach the index, a snippet marker or a log line. */
export const stripUnsafe = (text: string): string => text.replace(UNSAFE, ' ')

/**
 * Case- and accent-fold text the way the index tokenizer (unicode61, remove_diacritics 2) does,
 * closely enough that literal matching and index matching agree: `RÉFLEXION` → `reflexion`.
 */
export function foldText(text: string): string {
  // Fast path: plain ASCII needs only lower-casing.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase()
  return text.normalize('NFD').replace(DIACRITIC, '').toLowerCase()
}

/**
 * The tokens of `text` as the index's tokenizer splits them, lower-cased but not accent-folded
 * (unicode61 folds accents of Latin script only; quoted in a MATCH, the index folds the rest itself).
 */
export function indexTokens(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? []
}

/** The index's tokens of `text`: runs of letters, digits and private-use characters, folded. */
export function tokenize(text: string): string[] {
  return foldText(text).match(TOKEN) ?? []
}

/**
 * Parse what a person types into a search box. Never throws and never produces syntax a
 * backend could choke on: quotes, `NEAR`, `*`, parentheses and control characters are just text.
 * Supports words (all must match), `"exact phrase"`, `-exclude` (but `--flag` is a word), `prefix*`. Terms without any
 * letter or digit are dropped; an unbalanced quote runs to the end of the input.
 * @example parseQuery('fix "login bug" -draft auth*')
 */
export function parseQuery(input: string): ParsedQuery {
  let truncated = input.length > QUERY_LIMITS.inputChars
  const text = stripUnsafe(input.slice(0, QUERY_LIMITS.inputChars))
  const terms: QueryTerm[] = []
  const seen = new Set<string>()
  let i = 0
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++
    if (i >= text.length) break
    let negated = false
    // `--watch` is a command-line flag to find, not an exclusion of `-watch`.
    if (text[i] === '-' && i + 1 < text.length && !/[\s-]/.test(text[i + 1]!)) {
      negated = true
      i++
    }
    let raw: string
    let kind: QueryTerm['kind']
    if (text[i] === '"') {
      const end = text.indexOf('"', i + 1)
      raw = text.slice(i + 1, end === -1 ? text.length : end)
      i = end === -1 ? text.length : end + 1
      kind = 'phrase'
    } else {
      const start = i
      while (i < text.length && !/\s/.test(text[i]!) && text[i] !== '"') i++
      raw = text.slice(start, i)
      const stars = /\*+$/.exec(raw)
      kind = stars && tokenize(raw).length > 0 && raw.length - stars[0].length >= 2 ? 'prefix' : 'word'
      raw = raw.replace(/\*+/g, ' ').trim()
    }
    raw = raw.replace(/\s+/g, ' ').trim()
    if (raw.length > QUERY_LIMITS.termChars) {
      raw = raw.slice(0, QUERY_LIMITS.termChars)
      truncated = true
    }
    if (tokenize(raw).length === 0) continue
    const key = `${kind}:${negated}:${foldText(raw)}`
    if (seen.has(key)) continue
    if (terms.length === QUERY_LIMITS.terms) {
      truncated = true
      break
    }
    seen.add(key)
    terms.push({ kind, text: raw, negated })
  }
  return { terms, truncated }
}

/** True when the query can select anything: at least one term that is not an exclusion. */
export const hasPositiveTerm = (query: ParsedQuery): boolean => query.terms.some((t) => !t.negated)
