import type { PrunePlan } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { MediaSupport } from './media-blob.js'

/** Run state of a session as stored: what the refusal fences read inside the write transaction. */
export interface SessionFenceRow {
  workspaceID: string | null
  /** `event_sequence.owner_id`: a remote owner of the session's log. */
  ownerID: string | null
  hasSequence: boolean
  timeSuspended: number | null
  timeCompacting: number | null
  revert: string | null
  /** The same id is also stored in the other generation's tables (an upgraded file keeps both copies). */
  storedTwice: boolean
}

export interface PruneWrite {
  sessionID: string
  messageID: string
  plan: PrunePlan
  /** 2.x: the row text the plan was made from, read earlier in this transaction; the compare-and-swap compares against it. */
  storedText?: string
  now: number
  randomBytes(size: number): Buffer
}

/** What one prune changed besides the content, for tests and logs (counts only). */
export interface PruneEffects {
  eventsRedacted: number
  eventsAppended: number
  mediaRefsReleased: number
  blobsDeleted: number
}

/** Thrown inside the transaction when the stored row is not the one planned on: rolls back, answers `conflict`. */
export class PruneConflict extends Error {}
/** Thrown inside the transaction for storage Loupe must not write: rolls back, answers `unsupported_storage`. */
export class PruneUnsupported extends Error {}

/**
 * The write side of one OpenCode storage generation, built once per opened file (store.ts).
 * Reads of the native form go through the generation's OpenCodeStore, so revisions match the UI's.
 * Every method runs inside the caller's `BEGIN IMMEDIATE` transaction.
 */
/** A verbatim copy of a session's message in another session (a 2.x fork). */
export interface ForkCopy {
  sessionID: string
  title: string | null
  messageID: string
  sourceID: string
}

export interface PruneStore {
  readonly media: MediaSupport
  /** The tables whose shape the write depends on (checked against the probed layout in the transaction). */
  readonly tables: readonly string[]
  /** The file's schema version last checked in full inside a write transaction (shared by the file's generations). */
  readonly schema: { checkedVersion: number | null }
  sessionFence(db: SqliteDb, sessionID: string): SessionFenceRow | undefined
  /**
   * Messages the model no longer reads: those before the latest completed compaction, where 2.x
   * history starts. Pruning them frees storage but no context. Empty where Loupe does not know.
   */
  storageOnlyMessages(db: SqliteDb, sessionID: string): Set<string>
  /** Compaction rows of the session whose text still quotes this message's tool output or reasoning. */
  compactionCopies(db: SqliteDb, sessionID: string, messageID: string): number
  /** Other sessions holding a verbatim copy of this message's stored row (2.x forks copy the parent's rows). */
  copiesElsewhere(db: SqliteDb, sessionID: string, messageID: string): { sessionID: string; title: string | null }[]
  /** The same for many messages at once: each copy with its own id in its session (`sourceID`: the message it copies). */
  forkCopies(db: SqliteDb, sessionID: string, messageIDs: readonly string[]): ForkCopy[]
  /** Stored bytes of the message (row plus parts), or undefined when it is not in this session. */
  storedBytes(db: SqliteDb, sessionID: string, messageID: string): number | undefined
  apply(db: SqliteDb, write: PruneWrite): PruneEffects
}

