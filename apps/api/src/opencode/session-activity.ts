import { LIMITS, messageCompletedAt, messageCreatedAt, messageRole, type NativeMessage } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { OpenCodeStore, SessionRecord } from '../store/store.js'

/** A session and the store of its generation, as a write path resolved it. */
export interface LiveSession {
  session: SessionRecord
  store: OpenCodeStore
}

export interface SessionActivity {
  /** The newest of the session's update time and its last messages' created and completed times (epoch ms). */
  lastActiveAt: number
  /** One of its last messages is an assistant message OpenCode has not finished. */
  unfinished: boolean
}

// A running prompt's unfinished message is the newest assistant message; a few more cover the
// user message and a step OpenCode writes after it.
const TAIL = 4

/** What the storage says about each session's recent activity, in one read; keyed `storage:id`. */
export function readActivity(db: SqliteDb, sessions: readonly LiveSession[]): Map<string, SessionActivity> {
  return db.read(() => new Map(sessions.map(({ session, store }) => [`${session.storage}:${session.id}`, activityOf(db, store, session)])))
}

function activityOf(db: SqliteDb, store: OpenCodeStore, session: SessionRecord): SessionActivity {
  const slots = store.messageSlots(db, session.id, { kind: 'latest' }, TAIL)
  const small = slots.filter((s) => s.bytes <= LIMITS.messageStoredBytes).map((s) => s.key.id)
  const messages: NativeMessage[] = [
    ...store.loadMessages(db, session.id, small, { media: 'refs' }),
    ...slots.filter((s) => s.bytes > LIMITS.messageStoredBytes).flatMap((s) => store.loadOmitted(db, session.id, s.key.id, s.bytes) ?? []),
  ]
  let lastActiveAt = session.timeUpdated
  let unfinished = false
  for (const message of messages) {
    const completed = messageCompletedAt(message)
    lastActiveAt = Math.max(lastActiveAt, messageCreatedAt(message), completed ?? 0)
    if (messageRole(message) === 'assistant' && completed === undefined) unfinished = true
  }
  return { lastActiveAt, unfinished }
}

