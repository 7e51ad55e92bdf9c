import type { SearchFields, StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { parseObject } from './parse-object.js'

/** What identifies a row's version cheaply (no overflow pages read): rowid, update time, size. */
export interface RowStamp {
  rid: number
  time_updated: number
  len: number
}

/** A row the search index reads from one generation's table (a 1.x part, a 2.x message). */
export interface SourceRow extends RowStamp {
  session_id: string
}

export interface SourceSession {
  gen: StorageGeneration
  id: string
  title: string
  project_id: string
  directory: string
  time_created: number
  time_updated: number
  revert: string | null
}

/** A session as a search hit shows it: its title, and where a staged revert hides what follows. */
export interface SessionHead {
  title: string
  /** Where the session ran: tells apart sessions of the same title. */
  directory: string
  /** Messages from this id on are behind a staged revert; null without one. */
  revertFrom: string | null
}

/** What a document needs from its session: the scope tokens. */
export interface SessionScope {
  projectID: string
  directory: string
}

export const NO_SCOPE: SessionScope = { projectID: '', directory: '' }

/** The part key of a session's title document. */
export const TITLE_KEY = '#title'

/** Where a document comes from: a 1.x part, a 2.x content item or row text, or a session title. */
export interface DocKey {
  /** The generation's tag, stored as data in the sidecar's `gen` column. */
  gen: StorageGeneration
  sessionID: string
  /** '' for a session's title document. */
  messageID: string
  partKey: string
}

export interface DocInput extends DocKey {
  fields: SearchFields
  time: number
  srcUpdated: number
  projectID: string
  directory: string
  /** Its scope tokens, when the build's reader thread already made them. */
  meta?: string
}

/** The documents a row owns: one part's (`partKey` set) or every one of a message's. */
export interface RowOwner {
  sessionID: string
  messageID: string
  partKey: string | null
}

/** Where a hit points inside its message: a 1.x part id, a 2.x content index, or neither (a title, a message's own text). */
export interface HitLocation {
  partID?: string
  index?: number
}

/**
 * What the search index reads from one OpenCode storage generation: its rows by rowid (the
 * resumable build, the literal scan) or by session (catch-up), its sessions, and how its documents
 * map back to messages. One implementation per generation, built with the other store roles.
 */
export interface IndexSourceStore<Row extends SourceRow = SourceRow> {
  readonly gen: StorageGeneration
  /**
   * Where the build's stored cursor and a scan cursor keep this generation's position. Their
   * shapes predate the store roles; kept so sidecars and open scan pages carry over.
   */
  readonly cursorKeys: { readonly watermark: 'v1After' | 'v2After'; readonly horizon: 'h1' | 'h2' }
  /** Rows per read: small enough that a build batch stops near its byte limit, large enough to amortize a query. */
  readonly rowsPerRead: number
  /** Rows and the last rowid (cheap: the end of the rowid b-tree). */
  count(db: SqliteDb): { rows: number; last: number }
  lastRowid(db: SqliteDb): number
  /** Rows with rowid in (after, upTo], in rowid order, at most `limit`. */
  chunk(db: SqliteDb, after: number, limit: number, upTo?: number): Row[]
  /** The stamps of rows (after, upTo], in rowid order: has any changed since a batch read them? */
  stamps(db: SqliteDb, after: number, upTo: number): RowStamp[]
  /** A session's rows updated at or after `since`. */
  sessionRows(db: SqliteDb, sessionID: string, since: number): Row[]
  /** The rows of one message (any session's: callers check `owner`). */
  messageRows(db: SqliteDb, messageID: string): Row[]
  /** Source keys of a session's rows that exist, as `sourceKey` names them for a document. */
  liveKeys(db: SqliteDb, sessionID: string): Set<string>
  /** The key of the row a stored document came from (its part id, or its message id). */
  sourceKey(doc: { message_id: string; part_key: string }): string
  /** Which of these source keys still exist, with their `time_updated` (the reconcile sweep). */
  existing(db: SqliteDb, keys: readonly string[]): Map<string, number>
  /** Documents of a row, handed to `emit` (the build's hot loop: no array per row). */
  docs(row: Row, scope: SessionScope, emit: (doc: DocInput) => void): void
  owner(row: Row): RowOwner
  /** A stored document's place in its message, for a hit. */
  locate(partKey: string): HitLocation
  sessions(db: SqliteDb): SourceSession[]
  session(db: SqliteDb, id: string): SourceSession | undefined
  /** Title and staged revert boundary of these sessions; absent ids are gone. */
  heads(db: SqliteDb, ids: readonly string[]): Map<string, SessionHead>
  /** True when some session has this project or directory (scope checks: never a path lookup). */
  hasSession(db: SqliteDb, column: 'project_id' | 'directory', value: string): boolean
  /** Staged reverts of this generation's sessions: session id → first hidden message. */
  revertBoundaries(db: SqliteDb): Map<string, string>
}

/** The message a staged revert starts at, from a session's `revert` JSON. */
export const revertMessage = (revert: string | null): string | null => {
  const messageID = revert === null ? undefined : parseObject(revert)?.messageID
  return typeof messageID === 'string' ? messageID : null
}

export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',')
