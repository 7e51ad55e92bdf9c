import { isObject } from '@loupe/domain'

type Json = Record<string, unknown>

/**
 * The part an earlier `message.part.updated.1` event is redacted to (opencode-storage.md §10.3):
 * same identity, no content, still valid for OpenCode's event schema. A replay creates this empty
 * placeholder, and the appended `message.part.removed.1` deletes it again.
 */
export function minimalV1Part(part: Json): Json {
  const ids = { id: part.id, sessionID: part.sessionID, messageID: part.messageID }
  if (part.type === 'tool') {
    return { ...ids, type: 'tool', callID: part.callID, tool: part.tool, state: { status: 'pending', input: {}, raw: '' } }
  }
  const time = isObject(part.time) ? part.time : {}
  const start = typeof time.start === 'number' ? time.start : 0
  return { ...ids, type: 'reasoning', text: '', time: { start } }
}
