import { bindScope, decodeCursor, encodeCursor, LIMITS, mibText, type NativeMessage } from '@loupe/domain'
import { AppError } from '../../errors.js'
import type { MessageKey, MessageSlot, MessageWindow, OpenCodeStore } from '../../store/store.js'
import { resolveSession } from '../../store/resolve-session.js'
import type { PruneNote } from '../../store/receipts.store.js'
import type { GetMessageInput, ListMessagesInput, PruneNotesInput } from './sessions.schema.js'
import type { SessionsDeps } from './sessions.service.js'

type PageCursor = { dir: 'older' | 'newer'; t: number; id: string }
const isPageCursor = (p: unknown): p is PageCursor => {
  const c = p as PageCursor
  return typeof c === 'object' && c !== null && (c.dir === 'older' || c.dir === 'newer') && Number.isFinite(c.t) && typeof c.id === 'string'
}

/**
 * A window of a transcript in OpenCode's native read form: at most `limit` messages and about
 * 4 MiB, with cursors both ways, so a 10,000-message session opens as fast as a short one.
 * A message over 16 MiB comes without its parts (`omitted`).
 */
export function listMessages(deps: SessionsDeps, input: ListMessagesInput) {
  const { store, session } = resolveSession(deps.opencode, input.sessionID, input.storage)
  const { db } = deps.opencode
  const limit = input.limit ?? 60
  const binding = bindScope({ kind: 'messages', sessionID: session.id, storage: session.storage })
  return db.read(() => {
    const slots = selectSlots(deps, store, session.id, input, binding, limit)
    const first = slots[0]
    const last = slots.at(-1)
    const hasOlder = first ? store.messageSlots(db, session.id, { kind: 'before', key: first.key }, 1).length > 0 : false
    const hasNewer = last ? store.messageSlots(db, session.id, { kind: 'after', key: last.key }, 1).length > 0 : false
    const cursor = (dir: PageCursor['dir'], key: MessageKey) => encodeCursor('messages', binding, { dir, t: key.t, id: key.id })
    return {
      storage: session.storage,
      messages: loadSlots(deps, store, session.id, slots),
      older: hasOlder && first ? cursor('older', first.key) : null,
      newer: hasNewer && last ? cursor('newer', last.key) : null,
      total: store.countMessages(db, session.id),
    }
  })
}

function selectSlots(deps: SessionsDeps, store: OpenCodeStore, sessionID: string, input: ListMessagesInput, binding: string, limit: number): MessageSlot[] {
  const { db } = deps.opencode
  if (input.cursor) {
    const decoded = decodeCursor(input.cursor, 'messages', binding, isPageCursor)
    if (!decoded.ok) throw new AppError('invalid_cursor', 'This cursor belongs to another transcript; reload the session.')
    const { dir, t, id } = decoded.value
    const window: MessageWindow = { kind: dir === 'older' ? 'before' : 'after', key: { t, id } }
    return trim(store.messageSlots(db, sessionID, window, limit), dir === 'older' ? 'start' : 'end')
  }
  if (input.around) {
    const key = store.findMessageKey(db, sessionID, input.around)
    if (!key) throw new AppError('not_found', `No message ${input.around} in this session.`)
    const half = Math.floor(limit / 2)
    const older = store.messageSlots(db, sessionID, { kind: 'before', key }, half)
    const newer = store.messageSlots(db, sessionID, { kind: 'at', key }, limit - half)
    return trimAround(older, newer)
  }
  const earliest = input.anchor === 'earliest'
  return trim(store.messageSlots(db, sessionID, { kind: earliest ? 'earliest' : 'latest' }, limit), earliest ? 'end' : 'start')
}

/** Drop messages from one end until the page fits the byte budget; always keep one. */
function trim(slots: MessageSlot[], from: 'start' | 'end'): MessageSlot[] {
  const out = [...slots]
  let bytes = out.reduce((sum, s) => sum + s.bytes, 0)
  while (out.length > 1 && bytes > LIMITS.transcriptPageBytes) {
    const dropped = from === 'start' ? out.shift()! : out.pop()!
    bytes -= dropped.bytes
  }
  return out
}

function trimAround(older: MessageSlot[], newer: MessageSlot[]): MessageSlot[] {
  const before = [...older]
  const after = [...newer]
  let bytes = [...before, ...after].reduce((sum, s) => sum + s.bytes, 0)
  while (bytes > LIMITS.transcriptPageBytes && before.length + after.length > 1) {
    const dropped = (before.length >= after.length - 1 && before.length > 0 ? before.shift() : after.pop())!
    bytes -= dropped.bytes
  }
  return [...before, ...after]
}

function loadSlots(deps: SessionsDeps, store: OpenCodeStore, sessionID: string, slots: MessageSlot[]): NativeMessage[] {
  const { db } = deps.opencode
  const whole = slots.filter((s) => s.bytes <= LIMITS.messageStoredBytes).map((s) => s.key.id)
  const loaded = new Map(store.loadMessages(db, sessionID, whole).map((m) => [m.id as string, m]))
  const out: NativeMessage[] = []
  for (const slot of slots) {
    const message = loaded.get(slot.key.id) ?? store.loadOmitted(db, sessionID, slot.key.id, slot.bytes)
    if (message) out.push(message)
  }
  return out
}

/** One whole message in native read form (what the pruning UI re-reads before selecting). */
export function getMessage(deps: SessionsDeps, input: GetMessageInput): NativeMessage {
  const { store, session } = resolveSession(deps.opencode, input.sessionID, input.storage)
  const { db } = deps.opencode
  return db.read(() => {
    const key = store.findMessageKey(db, session.id, input.messageID)
    if (!key) throw new AppError('not_found', `No message ${input.messageID} in this session.`)
    const [slot] = store.messageSlots(db, session.id, { kind: 'at', key }, 1)
    if (slot && slot.bytes > LIMITS.messageStoredBytes) {
      throw new AppError('limit', `Message ${input.messageID} is ${mibText(slot.bytes)}, over the 16 MiB a message may have.`)
    }
    const [message] = store.loadMessages(db, session.id, [input.messageID])
    if (!message) throw new AppError('not_found', `No message ${input.messageID} in this session.`)
    return message
  })
}

/**
 * What Loupe removed from these messages of a session, from its prune receipts (which live in
 * OpenCode's file beside the change): the transcript shows where parts were taken out.
 */
export function pruneNotes(deps: SessionsDeps, input: PruneNotesInput): { notes: PruneNote[] } {
  const { store, session } = resolveSession(deps.opencode, input.sessionID, input.storage)
  const { db } = deps.opencode
  return db.read(() => {
    // Only ids of this session's messages: another session's receipts are not this page's business.
    const own = [...new Set(input.messageIDs)].filter((id) => store.findMessageKey(db, session.id, id) !== undefined)
    return { notes: store.receipts.notes(db, own) }
  })
}
