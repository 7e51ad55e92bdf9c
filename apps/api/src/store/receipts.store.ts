import { parseReceipt, type PruneReceipt } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { StorageLayout } from './probe.js'

/** Loupe's own table inside OpenCode's file, for files without `kv` (all of 1.x). */
export const RECEIPT_TABLE = 'loupe_prune_receipt'
const KV_PREFIX = 'loupe:prune-receipt:'

export type ReceiptLookup = { kind: 'none' } | { kind: 'found'; receipt: PruneReceipt } | { kind: 'foreign' }

/** What Loupe removed from one message, from its receipts: parts in all, and when it last did. */
export interface PruneNote {
  messageID: string
  parts: number
  at: number
}

/**
 * Where a prune's receipt lives: in the same file as the change, so both commit in one
 * transaction. 2.x files have `kv` (key namespaced, value JSON text); 1.x files get a small
 * Loupe-owned table, created by the first write. Receipts hold ids, hashes and counts only.
 */
export interface ReceiptStore {
  lookup(db: SqliteDb, key: string, messageID: string): ReceiptLookup
  save(db: SqliteDb, input: { key: string; sessionID: string; receipt: PruneReceipt; now: number }): void
  /** The notes of those of `messageIDs` that Loupe pruned (ours only: anything else is skipped). */
  notes(db: SqliteDb, messageIDs: readonly string[]): PruneNote[]
}

export function createReceiptStore(layout: StorageLayout): ReceiptStore {
  return layout.kv ? kvReceipts : tableReceipts
}

type ReceiptRow = { message_id: string; value: string; time_created: number }

/** Receipts to notes: one per message (a message pruned twice sums its parts). */
function toNotes(rows: readonly ReceiptRow[]): PruneNote[] {
  const notes = new Map<string, PruneNote>()
  for (const row of rows) {
    const receipt = parseReceipt(row.value, row.message_id)
    if (!receipt) continue
    const note = notes.get(row.message_id)
    if (note) notes.set(row.message_id, { ...note, parts: note.parts + receipt.removedCount, at: Math.max(note.at, row.time_created) })
    else notes.set(row.message_id, { messageID: row.message_id, parts: receipt.removedCount, at: row.time_created })
  }
  return [...notes.values()]
}

const marks = (ids: readonly string[]) => ids.map(() => '?').join(',')

const kvReceipts: ReceiptStore = {
  lookup(db, key, messageID) {
    const row = db.getSql<{ value: string }>(`SELECT value FROM kv WHERE key = ?`, [KV_PREFIX + key])
    if (!row) return { kind: 'none' }
    const receipt = parseReceipt(row.value, messageID)
    return receipt ? { kind: 'found', receipt } : { kind: 'foreign' }
  },
  save(db, { key, receipt, now }) {
    db.runSql(`INSERT INTO kv (key, value, time_created, time_updated) VALUES (?, ?, ?, ?)`, [KV_PREFIX + key, JSON.stringify(receipt), now, now])
  },
  notes(db, messageIDs) {
    if (messageIDs.length === 0) return []
    // Loupe's keys only (a range of the primary key), and of those the values naming these messages.
    return toNotes(db.allSql<ReceiptRow>(
      `SELECT value ->> '$.messageID' AS message_id, value, time_created FROM kv
        WHERE key > ? AND key < ? AND json_valid(value) AND value ->> '$.messageID' IN (${marks(messageIDs)})`,
      [KV_PREFIX, `${KV_PREFIX.slice(0, -1)};`, ...messageIDs]))
  },
}

const hasTable = (db: SqliteDb) => db.getSql(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, [RECEIPT_TABLE]) !== undefined

const tableReceipts: ReceiptStore = {
  lookup(db, key, messageID) {
    if (!hasTable(db)) return { kind: 'none' }
    const row = db.getSql<{ value: string }>(`SELECT value FROM ${RECEIPT_TABLE} WHERE key = ?`, [key])
    if (!row) return { kind: 'none' }
    const receipt = parseReceipt(row.value, messageID)
    return receipt ? { kind: 'found', receipt } : { kind: 'foreign' }
  },
  save(db, { key, sessionID, receipt, now }) {
    db.runSql(
      `CREATE TABLE IF NOT EXISTS ${RECEIPT_TABLE} (
         key TEXT PRIMARY KEY, session_id TEXT NOT NULL, message_id TEXT NOT NULL, value TEXT NOT NULL, time_created INTEGER NOT NULL)`,
    )
    db.runSql(`INSERT INTO ${RECEIPT_TABLE} (key, session_id, message_id, value, time_created) VALUES (?, ?, ?, ?, ?)`,
      [key, sessionID, receipt.messageID, JSON.stringify(receipt), now])
  },
  notes(db, messageIDs) {
    if (messageIDs.length === 0 || !hasTable(db)) return []
    return toNotes(db.allSql<ReceiptRow>(
      `SELECT message_id, value, time_created FROM ${RECEIPT_TABLE} WHERE message_id IN (${marks(messageIDs)})`, [...messageIDs]))
  },
}
