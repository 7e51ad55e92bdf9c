import { hasPositiveTerm, type ParsedQuery } from './query.js'

const OPERATOR = /(?:^|\s)(OR|AND|NOT)(?=\s|$)/
// A star after a single character: too short to be a prefix, so it is searched as a word.
const SHORT_PREFIX = /(?:^|\s)-?([^\s"*])\*+(?=\s|$)/

/**
 * What a person should know about how their query was read, when it did not do what the syntax
 * suggests: nothing to search for, exclusions alone, a one-letter prefix, `OR` taken as a word, or
 * (when nothing matched) a short word that is never looked for inside code tokens. Null when the
 * query was read as written. `found` is the number of results of the first page.
 */
export function searchHint(input: string, query: ParsedQuery, found: number): string | null {
  if (query.terms.length === 0) return 'Nothing to search for: type a word with letters or digits.'
  if (!hasPositiveTerm(query)) return 'Add a word to look for: -word only leaves results out.'
  const operator = OPERATOR.exec(input)?.[1]
  if (operator) return `Every word must match: “${operator}” is searched as a word, not as an operator.`
  const prefix = SHORT_PREFIX.exec(input)?.[1]
  if (prefix) return `A prefix needs two characters or more: “${prefix}*” is searched as the word “${prefix}”.`
  const short = found === 0 ? query.terms.find((t) => !t.negated && t.kind === 'word' && [...t.text].length < 3) : undefined
  if (short) return `Words under three characters match whole words only: “${short.text}” is not looked for inside longer names.`
  return null
}
