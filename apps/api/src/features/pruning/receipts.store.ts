import { parseReceipt, type PruneReceipt } from '@loupe/domain'
import type { SqliteDb } from '../../lib/sqlite.js'
import type { StorageLayout } from '../../store/probe.js'

/** Loupe's own table inside OpenCode's file, for files without `kv` (all of 1.x). */
export const RECEIPT_TABLE = 'loupe_prune_receipt'
const KV_PREFIX = 'loupe:prune-receipt:'

export type ReceiptLookup = { kind: 'none' } | { kind: 'found'; receipt: PruneReceipt } | { kind: 'foreign' }

/**
 * Where a prune's receipt lives: in the same file as the change, so both commit in one
 * transaction. 2.x files have `kv` (key namespaced, value JSON text); 1.x files get a small
 * Loupe-owned table, created by the first write. Receipts hold ids, hashes and counts only.
 */
export interface ReceiptStore {
  lookup(db: SqliteDb, key: string, messageID: string): ReceiptLookup
  save(db: SqliteDb, input: { key: string; sessionID: string; receipt: PruneReceipt; now: number }): void
}

export function createReceiptStore(layout: StorageLayout): ReceiptStore {
  return layout.kv ? kvReceipts : tableReceipts
}

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
}
