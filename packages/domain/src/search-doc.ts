import type { JsonObject } from './native.js'
import { isObject } from './json-read.js'

/** What a search hit is: assistant text, reasoning, a tool call, user-side text, or a session title. */
export const SEARCH_KINDS = ['text', 'reasoning', 'tool', 'user', 'title'] as const
export type SearchKind = (typeof SEARCH_KINDS)[number]

/** The searchable fields of one part (1.x), content item or row text (2.x), or session title. */
export interface SearchFields {
  kind: SearchKind
  tool: string | null
  /** A session title, or a tool call's title (e.g. the command). */
  title: string
  /** Text, reasoning, user or summary text. */
  body: string
  input: string
  output: string
}

/** One document: its fields plus where it lives (`key` is the 1.x part id, a 2.x content index, or `u`). */
export interface SearchDocFields extends SearchFields {
  key: string
}

/** Per field, text beyond this many characters is not indexed (whole files written by a tool fit). */
export const SEARCH_FIELD_CHARS = 1_000_000

const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/** Drop our snippet markers from content so stored text can never forge a highlight; cap the length. */
export function cleanField(text: string): string {
  const capped = text.length > SEARCH_FIELD_CHARS ? text.slice(0, SEARCH_FIELD_CHARS) : text
  return capped.includes('\uE000') || capped.includes('\uE001') ? capped.replace(/[\uE000\uE001]/g, ' ') : capped
}

/** Inline media is bytes, not text: data URLs and long base64 runs are never indexed. */
const isMedia = (s: string) => (s.startsWith('data:') && s.length > 200) || (s.length > 4096 && /^[A-Za-z0-9+/=\s]+$/.test(s.slice(0, 4096)))

/** The values of a tool input (keys are noise), one per line, media left out. */
export function flattenValues(value: unknown, out: string[] = [], budget = { left: SEARCH_FIELD_CHARS }): string[] {
  if (budget.left <= 0) return out
  if (typeof value === 'string') {
    if (value && !isMedia(value)) {
      out.push(value)
      budget.left -= value.length
    }
  } else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value))
  else if (Array.isArray(value)) for (const v of value) flattenValues(v, out, budget)
  else if (isObject(value)) for (const v of Object.values(value)) flattenValues(v, out, budget)
  return out
}

const fields = (kind: SearchKind, f: Partial<SearchFields>): SearchFields => ({
  kind,
  tool: f.tool ?? null,
  title: cleanField(f.title ?? ''),
  body: cleanField(f.body ?? ''),
  input: cleanField(f.input ?? ''),
  output: cleanField(f.output ?? ''),
})

const hasText = (f: SearchFields) => !!(f.title || f.body || f.input || f.output || f.tool)

/** Text entries of a 2.x tool state's `content[]` (files are media, not text). */
const contentText = (content: unknown) =>
  Array.isArray(content) ? content.filter((c) => isObject(c) && c.type === 'text').map((c) => str((c as JsonObject).text)).join('\n') : ''

/**
 * The searchable document of a 1.x part (`part.data`), given its message's role; null for parts
 * with nothing to search (step markers, snapshots, patches, files, unknown types).
 */
export function partSearchFields(part: JsonObject, role: string): SearchFields | null {
  const type = str(part.type)
  let f: SearchFields | null = null
  if (type === 'text') f = fields(role === 'user' ? 'user' : 'text', { body: str(part.text) })
  else if (type === 'reasoning') f = fields('reasoning', { body: str(part.text) })
  else if (type === 'subtask') f = fields('user', { body: [str(part.description), str(part.prompt)].filter(Boolean).join('\n') })
  else if (type === 'tool') {
    const state = isObject(part.state) ? part.state : {}
    const error = isObject(state.error) ? str(state.error.message) : str(state.error)
    f = fields('tool', {
      tool: str(part.tool) || null,
      title: str(state.title),
      input: flattenValues(state.input).join('\n'),
      output: [str(state.output), error].filter(Boolean).join('\n'),
    })
  }
  return f && hasText(f) ? f : null
}

/** A 2.x assistant `content[]` item. */
function contentItemFields(item: unknown): SearchFields | null {
  if (!isObject(item)) return null
  const type = str(item.type)
  if (type === 'text') return fields('text', { body: str(item.text) })
  if (type === 'reasoning') return fields('reasoning', { body: str(item.text) })
  if (type !== 'tool') return null
  const state = isObject(item.state) ? item.state : {}
  const error = isObject(state.error) ? str(state.error.message) : str(state.error)
  const result = isObject(state.result) ? str(state.result.value) : ''
  return fields('tool', {
    tool: str(item.name) || null,
    title: str(state.title),
    input: flattenValues(state.input).join('\n'),
    output: [contentText(state.content), error, result === error ? '' : result].filter(Boolean).join('\n'),
  })
}

/**
 * The documents of one 2.x `session_message` row: one per assistant content item (`key` = its
 * index), or one for the row's own text (`key` = `u`): user, synthetic, skill, compaction summary,
 * shell command and output. System notices and switches carry nothing to search.
 */
export function messageSearchDocs(type: string, data: JsonObject): SearchDocFields[] {
  if (type === 'assistant') {
    const content = Array.isArray(data.content) ? data.content : []
    const out: SearchDocFields[] = []
    content.forEach((item, i) => {
      const f = contentItemFields(item)
      if (f && hasText(f)) out.push({ key: String(i), ...f })
    })
    return out
  }
  let f: SearchFields | null = null
  if (type === 'user' || type === 'synthetic' || type === 'skill') f = fields('user', { body: str(data.text) })
  else if (type === 'compaction') f = fields('text', { body: str(data.summary) })
  else if (type === 'shell') {
    f = fields('tool', { tool: 'shell', input: str(data.command), output: str(data.output) })
  }
  return f && hasText(f) ? [{ key: 'u', ...f }] : []
}

/** OpenCode's placeholder titles say nothing worth finding. */
export const isDefaultTitle = (title: string) => /^(New|Child) session - \d{4}-/.test(title)

const WIDE_TOKEN_CHAR = /[\p{L}\p{N}\p{Co}]/u
/** Hiragana, Katakana, CJK ideographs, Hangul syllables, CJK compatibility ideographs. */
const isCjk = (c: number) => (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff)

/**
 * Where a code token can be: a digit next to a letter (or any non-ASCII character), a lower-case
 * letter before an upper-case one, or a Chinese, Japanese or Korean character. A token without
 * any of these is never a code token, and most text has few, so only the tokens around a match
 * are looked at closely.
 */
const CANDIDATE = /[0-9][A-Za-z\u0080-\uffff]|[A-Za-z\u0080-\uffff][0-9]|[a-z][A-Z]|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/g

/** Whether the UTF-16 unit at `i` belongs to an index token (letters, digits, private use); ASCII without a regex. */
export const isTokenChar = (text: string, i: number) => {
  const c = text.charCodeAt(i)
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c > 127 && WIDE_TOKEN_CHAR.test(text[i]!))
}

/** The code tokens of a document's text fields (the title, body, input and output), into `into`. */
export function documentCodeTokens(fields: SearchFields, into: Set<string> = new Set()): Set<string> {
  for (const text of [fields.title, fields.body, fields.input, fields.output]) if (text) codeTokens(text, into)
  return into
}

/**
 * The folded code tokens of `text` worth finding by a piece of themselves (`1137` → `pr1137`):
 * 4–32 characters, letters and digits mixed in at most three runs (PR1137, utf8, sha256sum) or
 * camelCase (getUserName), and runs of Chinese, Japanese or Korean text (one index token each).
 * Hashes and random ids alternate letters and digits and are left out.
 * The index keeps these in a trigram vocabulary. This runs over every byte the index takes in:
 * a regular expression skips to the candidates, and a character loop decides each one.
 */
export function codeTokens(text: string, into: Set<string> = new Set()): Set<string> {
  const candidate = new RegExp(CANDIDATE)
  for (let m = candidate.exec(text); m; m = candidate.exec(text)) {
    let start = m.index
    while (start > 0 && isTokenChar(text, start - 1)) start--
    let end = m.index + 1
    while (end < text.length && isTokenChar(text, end)) end++
    codeTokensIn(text, start, end, into)
    candidate.lastIndex = end
  }
  return into
}

/** The code tokens of `text` between two token boundaries, one character at a time. */
export function codeTokensIn(text: string, from: number, to: number, into: Set<string>): Set<string> {
  let start = -1
  let digit = false
  let letter = false
  let camel = false
  let prevLower = false
  let runs = 0
  let prevDigit = false
  let cjk = false
  for (let i = from; i <= to; i++) {
    const c = i < to ? text.charCodeAt(i) : 32
    const isDigit = c >= 48 && c <= 57
    const isUpper = c >= 65 && c <= 90
    const isLower = c >= 97 && c <= 122
    const token = isDigit || isUpper || isLower || (c > 127 && WIDE_TOKEN_CHAR.test(text[i]!))
    if (token) {
      if (start < 0) {
        start = i
        digit = letter = camel = prevLower = cjk = false
        runs = 1
      } else if (isDigit !== prevDigit) runs++
      if (isCjk(c)) cjk = true
      if (isDigit) digit = true
      else letter = true
      if (isUpper && prevLower) camel = true
      prevLower = isLower
      prevDigit = isDigit
      continue
    }
    if (start >= 0) {
      const length = i - start
      // Mixed case with digits is a random id (jBhJvbA3), not a name anyone types a piece of.
      const code = length >= 4 && ((digit && letter && runs <= 3 && !camel) || (camel && !digit))
      // Scripts written without spaces: a whole run is one index token, so pieces are found here.
      // Lower-cased only: the index folds accents for Latin script alone, so terms stay as it reads them.
      if (length <= 32 && (code || (cjk && length >= 3))) into.add(text.slice(start, i).toLowerCase())
      start = -1
    }
  }
  return into
}
