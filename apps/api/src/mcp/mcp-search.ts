import { bindScope, decodeCursor, encodeCursor, ID_PATTERN } from '@loupe/domain'
import { AppError } from '../errors.js'
import type { HistoryDeps } from '../features/history/history-scope.js'
import { searchInput, type SearchInput } from '../features/history/history.schema.js'
import { search } from '../features/history/history.service.js'
import { hitText, utf8Bytes } from './mcp-text.js'
import { MCP_ANSWER_BYTES, type SessionSearchArgs } from './mcp.schema.js'

const SCAN_BUDGET_MS = 1000

/** A page of the history search and how many of its hits earlier answers already gave. */
type McpSearchCursor = { c: string | null; k: number }
const isCursor = (p: unknown): p is McpSearchCursor => {
  const c = p as McpSearchCursor
  return typeof c === 'object' && c !== null && (c.c === null || (typeof c.c === 'string' && c.c.length <= 4096)) &&
    Number.isSafeInteger(c.k) && c.k >= 0 && c.k <= 50
}

/** The tool's arguments as `history.search` takes them, checked by the procedure's own schema. */
export function toSearchInput(args: SessionSearchArgs, cursor: string | null, limit: number): SearchInput {
  const scope = args.scope?.trim()
  const input: Record<string, unknown> = { query: args.query, limit }
  if (scope && scope !== 'all') {
    if (scope.startsWith('/')) input.directory = scope
    else if (ID_PATTERN.test(scope)) input.sessionID = scope
    else throw new AppError('invalid_input', 'scope must be "all", a project directory (an absolute path) or a session id.')
  }
  for (const key of ['kinds', 'tool', 'since', 'until'] as const) if (args[key] !== undefined) input[key] = args[key]
  if (cursor) input.cursor = cursor
  const parsed = searchInput.safeParse(input)
  if (!parsed.success) throw new AppError('invalid_input', `Invalid search: ${parsed.error.issues[0]?.message ?? 'bad input'}.`)
  return parsed.data
}

export interface McpAnswer {
  text: string
  data: Record<string, unknown>
}

/**
 * `session_search`: one page of `history.search`, as text that fits the bound. Hits that do not fit
 * are not lost: the cursor names the same page again and how many of its hits were given.
 */
export function sessionSearch(deps: HistoryDeps, args: SessionSearchArgs): McpAnswer {
  const limit = args.limit ?? 10
  const binding = bindScope({ kind: 'mcp-search', args: { ...args, cursor: null, limit } })
  let from: McpSearchCursor = { c: null, k: 0 }
  if (args.cursor) {
    const decoded = decodeCursor(args.cursor, 'mcp-search', binding, isCursor)
    if (!decoded.ok) {
      throw new AppError(decoded.error === 'conflict' ? 'conflict' : 'invalid_cursor',
        decoded.error === 'conflict' ? 'This cursor belongs to another search; search again without it.' : 'Malformed search cursor.')
    }
    from = decoded.value
  }
  let answer = search(deps, toSearchInput(args, from.c, limit))
  // While the index builds, the literal scan answers a page of storage at a time, often empty:
  // an agent gets the first page with hits (or the scan's position after a second of reading).
  const started = performance.now()
  while (answer.mode === 'scan' && answer.hits.length === 0 && answer.cursor && performance.now() - started < SCAN_BUDGET_MS) {
    from = { c: answer.cursor, k: 0 }
    answer = search(deps, toSearchInput(args, from.c, limit))
  }
  const hits = answer.hits.slice(from.k)
  const head = [
    answer.hits.length === 0 && from.k === 0
      ? `No hits for ${JSON.stringify(args.query.slice(0, 200))}${answer.cursor ? ' in the part of history scanned so far' : ''}.` : null,
    answer.notice,
    answer.mode === 'scan' ? 'Literal scan (the index is not ready): hits in storage order, not ranked.' : null,
    answer.truncated ? 'Only the newest matches were ranked; a narrower query finds older ones.' : null,
  ].filter(Boolean).join('\n')
  // Room for the cursor line: a cursor is at most LIMITS.cursorChars of ASCII.
  const footerBytes = 4300
  let text = head
  let shown = 0
  for (const hit of hits) {
    const block = hitText(from.k + shown + 1, hit)
    if (utf8Bytes(text) + utf8Bytes(block) + 2 + footerBytes > MCP_ANSWER_BYTES) break
    text = text ? `${text}\n\n${block}` : block
    shown++
  }
  const next: McpSearchCursor | null = shown < hits.length ? { c: from.c, k: from.k + shown }
    : answer.cursor ? { c: answer.cursor, k: 0 } : null
  const cursor = next ? encodeCursor('mcp-search', binding, next) : null
  text += cursor ? `\n\nMore hits: call session_search again with the same arguments and cursor=${cursor}` : ''
  return {
    text,
    data: { hits: hits.slice(0, shown).map((h) => ({ sessionID: h.sessionID, messageID: h.messageID, kind: h.kind, tool: h.tool ?? null, time: h.time })), cursor, mode: answer.mode },
  }
}
