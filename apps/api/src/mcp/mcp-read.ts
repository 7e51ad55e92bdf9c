import { bindScope, decodeCursor, encodeCursor, type NativeMessage } from '@loupe/domain'
import { AppError } from '../errors.js'
import { getSession } from '../features/sessions/sessions.service.js'
import { listMessages } from '../features/sessions/messages.service.js'
import type { SessionsDeps } from '../features/sessions/sessions.service.js'
import { clipBytes, messageText, utf8Bytes } from './mcp-text.js'
import { MCP_ANSWER_BYTES, type SessionReadArgs } from './mcp.schema.js'
import type { McpAnswer } from './mcp-search.js'

/** Where the next answer starts: this message, and how many after it are still wanted. */
type ReadCursor = { m: string; a: number }
const isCursor = (p: unknown): p is ReadCursor => {
  const c = p as ReadCursor
  return typeof c === 'object' && c !== null && typeof c.m === 'string' && c.m.length <= 256 && Number.isSafeInteger(c.a) && c.a >= 0 && c.a <= 5
}

const WINDOW = 11

/** A window of a session as readable text, the ids of the messages it shows, and where to read on. */
export interface SessionWindow {
  session: ReturnType<typeof getSession>['session']
  text: string
  messages: string[]
  cursor: string | null
}

/**
 * `session_read`: a message and its neighbours through `sessions.messages` (the transcript's own
 * window), as readable text under the bound; what does not fit comes with a cursor.
 */
export function sessionRead(deps: SessionsDeps, args: SessionReadArgs): McpAnswer {
  const read = readSessionWindow(deps, args)
  const text = read.cursor ? `${read.text}\n\nMore: call session_read again with the same sessionID and cursor=${read.cursor}` : read.text
  return { text, data: { messages: read.messages, cursor: read.cursor } }
}

/** What `session_read` and `loupe show` print: the target and its neighbours under the MCP bound. */
export function readSessionWindow(deps: SessionsDeps, args: SessionReadArgs): SessionWindow {
  const { session } = getSession(deps, { sessionID: args.sessionID })
  const binding = bindScope({ kind: 'mcp-read', sessionID: session.id, storage: session.storage })
  let target = args.messageID
  let before = args.before ?? 2
  let after = args.after ?? 2
  if (args.cursor) {
    const decoded = decodeCursor(args.cursor, 'mcp-read', binding, isCursor)
    if (!decoded.ok) throw new AppError('invalid_cursor', 'This cursor belongs to another session; read again without it.')
    target = decoded.value.m
    before = 0
    after = decoded.value.a
  }
  const page = listMessages(deps, target
    ? { sessionID: session.id, storage: session.storage, around: target, limit: WINDOW }
    : { sessionID: session.id, storage: session.storage, anchor: 'latest', limit: WINDOW })
  const at = target ? page.messages.findIndex((m) => m.id === target) : page.messages.length - 1
  if (at < 0) throw new AppError('not_found', `No message ${target} in this session.`)
  const window = page.messages.slice(Math.max(0, at - before), at + after + 1)
  const head = `Session ${session.id} — ${session.title || '(untitled)'} — ${session.directory || '(no directory)'} — ${page.total} messages`
  const shown = bounded(head, window, window.indexOf(page.messages[at]!))
  const wanted = window.indexOf(page.messages[at]!) + after
  // The transcript's page may hold fewer neighbours than asked (its byte budget): read on past it.
  const next = shown.next < window.length ? window[shown.next]
    : shown.next <= wanted && page.newer ? listMessages(deps, { sessionID: session.id, storage: session.storage, cursor: page.newer, limit: 1 }).messages[0] : undefined
  const cursor = next ? encodeCursor('mcp-read', binding, { m: next.id, a: Math.max(0, Math.min(5, wanted - shown.next)) }) : null
  return { session, text: shown.text, messages: shown.ids, cursor }
}

const NEIGHBOUR_BYTES = 3000
const TARGET_MIN_BYTES = 8000
const RESERVE = 4400
const clipped = (block: string, bytes: number) =>
  utf8Bytes(block) <= bytes ? block : `${clipBytes(block, bytes - 80)}\n… [clipped: the message is longer than this answer holds]`

/**
 * Neighbours before the target at most 3 KB each (the earliest dropped if the target would get
 * less than 8 KB), the target in what is left, then later messages until the bound; a cursor
 * continues from the first message not shown.
 */
function bounded(head: string, window: NativeMessage[], target: number): { text: string; ids: string[]; next: number } {
  const room = () => MCP_ANSWER_BYTES - RESERVE - utf8Bytes(text) - 2
  const earlier = window.slice(0, target).map((m) => clipped(messageText(m, false), NEIGHBOUR_BYTES))
  const budget = MCP_ANSWER_BYTES - RESERVE - utf8Bytes(head) - TARGET_MIN_BYTES
  while (earlier.reduce((n, b) => n + utf8Bytes(b) + 2, 0) > budget) earlier.shift()
  let text = [head, ...earlier].join('\n\n')
  const shownIds = window.slice(target - earlier.length, target).map((m) => m.id)
  text += `\n\n${clipped(messageText(window[target]!, true), room())}`
  shownIds.push(window[target]!.id)
  let next = target + 1
  for (; next < window.length; next++) {
    const block = clipped(messageText(window[next]!, false), NEIGHBOUR_BYTES)
    if (utf8Bytes(block) > room()) break
    text += `\n\n${block}`
    shownIds.push(window[next]!.id)
  }
  return { text, ids: shownIds, next }
}
