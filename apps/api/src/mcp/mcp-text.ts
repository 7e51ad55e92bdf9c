import { messageContent, messageCreatedAt, messageInfo, messageOwnText, messageRole, summarizeToolInput, type NativeMessage, type SnippetSegment } from '@loupe/domain'
import type { SearchHit } from '../features/history/history-scope.js'

const encoder = new TextEncoder()
export const utf8Bytes = (text: string) => encoder.encode(text).length

/** `text` cut to at most `max` characters on one line or more, with a mark where it was cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters clipped]`
}

/** Cut to at most `bytes` UTF-8 bytes, never through a character. */
export function clipBytes(text: string, bytes: number): string {
  if (utf8Bytes(text) <= bytes) return text
  let lo = 0
  let hi = text.length
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (utf8Bytes(text.slice(0, mid)) <= bytes) lo = mid
    else hi = mid - 1
  }
  return text.slice(0, lo)
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim()
const iso = (ms: number) => (Number.isFinite(ms) && ms > 0 ? new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z') : 'unknown time')

/** Matches in a snippet as «word»: plain text an agent reads without markup. */
export const snippetText = (segments: readonly SnippetSegment[]) =>
  oneLine(segments.map((s) => (s.match ? `«${s.text}»` : s.text)).join(''))

/** One hit: the ids a later `session_read` needs as `key=value`, then the snippet. */
export function hitText(rank: number, hit: SearchHit): string {
  const where = [`sessionID=${hit.sessionID}`, hit.messageID ? `messageID=${hit.messageID}` : null, `kind=${hit.kind}`, hit.tool ? `tool=${hit.tool}` : null]
  return [
    `${rank}. ${clip(oneLine(hit.sessionTitle) || '(untitled)', 200)} — ${clip(hit.sessionDirectory || '(no directory)', 300)} — ${iso(hit.time)}`,
    `   ${where.filter(Boolean).join(' ')}`,
    `   ${clip(snippetText(hit.snippet), 700)}`,
  ].join('\n')
}

const PART_CHARS = { text: 6000, reasoning: 1500, output: 1500 }
const str = (v: unknown) => (typeof v === 'string' ? v : '')
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {})

/** A tool call in two lines: name, status and a summary of its input; then its output, clipped. */
function toolText(name: string, state: Record<string, unknown>, output: string): string {
  const status = str(state.status) || 'unknown'
  const summary = summarizeToolInput(name, state.input, 200)
  const error = str(state.error) || str(obj(state.error).message)
  const body = output || error
  return [`[tool ${name || '?'} ${status}] ${summary}`, body ? `  → ${clip(body.trim(), PART_CHARS.output).replace(/\n/g, '\n    ')}` : null]
    .filter(Boolean).join('\n')
}

/** One 1.x part or 2.x content item as readable text; null for bookkeeping (steps, snapshots). */
function itemText(item: unknown): string | null {
  const part = obj(item)
  const type = str(part.type)
  if (type === 'text') return clip(str(part.text).trim(), PART_CHARS.text)
  if (type === 'reasoning') return `(reasoning) ${clip(str(part.text).trim(), PART_CHARS.reasoning)}`
  if (type === 'tool') {
    const state = obj(part.state)
    const v2out = Array.isArray(state.content) ? state.content.map((c) => str(obj(c).text)).filter(Boolean).join('\n') : ''
    return toolText(str(part.tool) || str(part.name), state, str(state.output) || v2out || str(obj(state.result).value))
  }
  if (type === 'file') return `[file ${str(part.mime) || '?'} ${str(part.filename)}]`
  if (type === 'subtask') return `[subtask] ${clip(str(part.description) || str(part.prompt), 300)}`
  if (type === 'patch') return `[patch ${Array.isArray(part.files) ? part.files.length : 0} files]`
  return null
}

/** A whole message as readable text: a header line, then each part that says something. */
export function messageText(message: NativeMessage, marked: boolean): string {
  const info = messageInfo(message)
  const role = messageRole(message)
  const head = `${marked ? '>>> ' : ''}--- ${role} message ${message.id} — ${iso(messageCreatedAt(message))}${str(info.agent) ? ` — agent ${str(info.agent)}` : ''}`
  if (message.omitted) return `${head}\n(its content is too large to read here: ${message.omitted.bytes} bytes)`
  const own = messageOwnText(message) ? [clip(messageOwnText(message).trim(), PART_CHARS.text)] : []
  const parts = messageContent(message).map(itemText).filter((t): t is string => !!t)
  return [head, ...own, ...parts].join('\n')
}
