import { hasPositiveTerm, type ParsedQuery } from './query.js'
import { MIN_INNER_WORD_CHARS, TOKEN_CLASS } from './search-match.js'

const QUOTED = /"[^"]*(?:"|$)/g
const OPERATOR = /(?:^|[\s(])(OR|AND|NOT|NEAR)(?=[\s()]|$)/
// In lower case these are also plain words: only an answer with nothing in it suggests an operator.
const OPERATOR_WORD = /(?:^|\s)(or|and|not)(?=\s|$)/i
// A star after a single letter or digit: too short to be a prefix, so it is searched as a word.
const SHORT_PREFIX = new RegExp(`(?:^|\\s)-?([${TOKEN_CLASS}])\\*+(?=\\s|$)`, 'u')

/** What the hint needs of the answer: how many results its first page had, and how it searched. */
export interface HintAnswer {
  found: number
  /** `scan` matches words inside longer ones too; only the index reads whole tokens. */
  mode: 'index' | 'scan'
}

/**
 * What a person should know about how their query was read, when it did not do what the syntax
 * suggests: nothing to search for, exclusions alone, a one-letter prefix, `OR` taken as a word, or
 * (when the index found nothing) a short word that is never looked for inside code tokens. Null
 * for an empty query, and when the query was read as written.
 */
export function searchHint(input: string, query: ParsedQuery, answer: HintAnswer): string | null {
  if (!input.trim()) return null
  if (query.terms.length === 0) return 'Nothing to search for: type a word with letters or digits.'
  if (!hasPositiveTerm(query)) return 'Add a word to look for: -word only leaves results out.'
  // Inside quotes everything is a phrase's words, read as written.
  const unquoted = input.replace(QUOTED, ' ')
  const operator = OPERATOR.exec(unquoted)?.[1]
  if (operator) return `Every word must match: “${operator}” is searched as a word, not as an operator.`
  const prefix = SHORT_PREFIX.exec(unquoted)?.[1]
  if (prefix) return `A prefix needs two characters or more: “${prefix}*” is searched as the word “${prefix}”.`
  const nothing = answer.found === 0 && answer.mode === 'index'
  const word = nothing && query.terms.length > 1 ? OPERATOR_WORD.exec(unquoted)?.[1] : undefined
  if (word) return `Every word must match: “${word}” is searched as a word, not as an operator.`
  const short = nothing
    ? query.terms.find((t) => !t.negated && t.kind === 'word' && [...t.text].length < MIN_INNER_WORD_CHARS)
    : undefined
  if (short) return `Words under three characters match whole words only: “${short.text}” is not looked for inside longer names.`
  return null
}
