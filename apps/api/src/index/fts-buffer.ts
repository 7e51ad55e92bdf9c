import { documentCodeTokens, type SearchFields } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'

/**
 * Full-text writes of one transaction. FTS5 flushes its in-memory index whenever a write's rowid
 * is not above the previous one, so writes wait here and go out in ascending rowid order at
 * `flush` (several times faster than writing in source order, whose times jump back and forth
 * between sessions).
 */
export function createFtsBuffer(db: SqliteDb) {
  const inserts = new Map<number, unknown[]>()
  const deletes = new Set<number>()
  /** Ids first inserted in this transaction: never in the full-text table yet. */
  const fresh = new Set<number>()
  const clear = () => {
    inserts.clear()
    deletes.clear()
    fresh.clear()
  }
  return {
    begin: clear,
    /** An id this transaction inserted into `doc`. */
    markNew: (id: number) => void fresh.add(id),
    /** The full-text row of `id` (replacing any). */
    set: (id: number, row: unknown[]) => void inserts.set(id, row),
    drop(id: number) {
      inserts.delete(id)
      if (!fresh.has(id)) deletes.add(id)
    },
    flush() {
      for (const id of [...deletes].sort((a, b) => a - b)) db.runSql(`DELETE FROM fts WHERE rowid = CAST(? AS INTEGER)`, [id])
      for (const id of [...inserts.keys()].sort((a, b) => a - b)) {
        db.runSql(`INSERT INTO fts(rowid, title, body, tool, input, output, meta) VALUES (CAST(? AS INTEGER), ?, ?, ?, ?, ?, ?)`, [id, ...inserts.get(id)!])
      }
      clear()
    },
  }
}

/** Code tokens for the trigram vocabulary that serves substring search; new ones written once per transaction. */
export function createVocabulary(db: SqliteDb) {
  const known = new Set<string>()
  const pending = new Set<string>()
  return {
    begin: () => pending.clear(),
    addTerms(terms: readonly string[]) {
      for (const t of terms) pending.add(t)
    },
    addDocument: (fields: SearchFields) => documentCodeTokens(fields, pending),
    /** Write this transaction's new tokens. `trigrams: false` (the initial build) leaves their substring index to `rebuild`. */
    flush(trigrams: boolean) {
      const fresh = [...pending].filter((t) => !known.has(t))
      pending.clear()
      if (fresh.length === 0) return
      if (known.size + fresh.length > 200_000) known.clear()
      for (const t of fresh) known.add(t)
      const before = trigrams ? db.getSql<{ m: number | null }>(`SELECT max(id) AS m FROM vocab`)!.m ?? 0 : 0
      db.runSql(`INSERT OR IGNORE INTO vocab(term) SELECT value FROM json_each(?)`, [JSON.stringify(fresh)])
      if (trigrams) db.runSql(`INSERT INTO vocab_tri(rowid, term) SELECT id, term FROM vocab WHERE id > ?`, [before])
    },
    /**
     * Index every code token for substring search in one pass (the end of the initial build):
     * one trigram segment instead of a small one per transaction, merged over and over.
     */
    rebuild: () => void db.runSql(`INSERT INTO vocab_tri(vocab_tri) VALUES ('rebuild')`),
  }
}
