import type { MessageID } from './ids.js'
import type { CanonicalPieces } from './revision.js'

export type JsonObject = Record<string, unknown>

/** Set when a message was too large to send whole: its parts or content are left out. */
export interface OmittedContent {
  reason: 'limit'
  bytes: number
}

/** A 1.x message in OpenCode's read form (`GET /session/:id/message`): info plus parts in id order. */
export interface V1NativeMessage {
  storage: 'v1'
  id: MessageID
  info: JsonObject
  parts: JsonObject[]
  omitted?: OmittedContent
}

/** A 2.x `session_message` row in OpenCode's read form (`{id, type, ...data}`), with its `seq`. */
export interface V2NativeMessage {
  storage: 'v2'
  id: MessageID
  seq: number
  message: JsonObject
  omitted?: OmittedContent
}

export type NativeMessage = V1NativeMessage | V2NativeMessage

/**
 * A native message with the canonical pieces of its content items, when the store read them off
 * the stored text: each equal to `canonicalPieces(item)`; an undefined one is serialized from the value.
 * Server-side only: never part of what procedures answer.
 */
export type CanonicalNativeMessage = NativeMessage & { canonicalItems?: readonly (CanonicalPieces | undefined)[] }

/** The array the content revision covers: 1.x parts, or 2.x `data.content` (empty when absent). */
export function messageContent(message: NativeMessage): unknown[] {
  if (message.storage === 'v1') return message.parts
  const content = message.message.content
  return Array.isArray(content) ? content : []
}

/** `user`, `assistant`, or a 2.x row type such as `compaction` or `synthetic`. */
export function messageRole(message: NativeMessage): string {
  const role = message.storage === 'v1' ? message.info.role : message.message.type
  return typeof role === 'string' ? role : 'unknown'
}

/** The message's own fields: 1.x `message.data` (info), 2.x the `session_message` row's data. */
export function messageInfo(message: NativeMessage): JsonObject {
  return message.storage === 'v1' ? message.info : message.message
}

/** Text a 2.x row carries itself (a user or synthetic message's `text`), beside its content items; '' for 1.x. */
export function messageOwnText(message: NativeMessage): string {
  const text = message.storage === 'v2' ? message.message.text : undefined
  return typeof text === 'string' ? text : ''
}

/** `time.created` when set, else 0 (ms). */
export function messageCreatedAt(message: NativeMessage): number {
  const time = messageInfo(message).time
  const created = typeof time === 'object' && time !== null ? (time as JsonObject).created : undefined
  return typeof created === 'number' && Number.isFinite(created) ? created : 0
}

/** `time.completed` when set: the design's test for a finished message. */
export function messageCompletedAt(message: NativeMessage): number | undefined {
  const time = messageInfo(message).time
  if (typeof time !== 'object' || time === null) return undefined
  const completed = (time as JsonObject).completed
  return typeof completed === 'number' && Number.isFinite(completed) && completed > 0 ? completed : undefined
}
