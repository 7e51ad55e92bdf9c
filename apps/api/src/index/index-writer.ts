import { documentCodeTokens, type SearchFields, type StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { idOfKey, keyBase, keyOfId, LAST_KEY_BASE, SLOTS } from './doc-id.js'
import { metaText, metaToken } from './fts-query.js'

/** Where a document comes from: a 1.x part, a 2.x content item or row text, or a session title. */
export interface DocKey {
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
  /** Its scope tokens, when the build's reader thread already made them (`createMetaText`). */
  meta?: string
}

export const TITLE_KEY = '#title'

/**
 * A document's scope tokens. A session's part (two hex ids and a sha256) is computed once per
 * session, not per document.
 */
export function createMetaText() {
  const cache = new Map<string, string>()
  return (doc: DocInput): string => {
    if (doc.meta !== undefined) return doc.meta
    const key = `${doc.gen}\0${doc.sessionID}\0${doc.projectID}\0${doc.directory}`
    let scope = cache.get(key)
    if (scope === undefined) {
      if (cache.size > 20_000) cache.clear()
      const tokens = metaText({ kind: doc.fields.kind, tool: null, storage: doc.gen, sessionID: doc.sessionID, projectID: doc.projectID, directory: doc.directory })
      scope = tokens.slice(tokens.indexOf(' '))
      cache.set(key, scope)
    }
    return `${metaToken.kind(doc.fields.kind)}${scope}${doc.fields.tool ? ` ${metaToken.tool(doc.fields.tool)}` : ''}`
  }
}

interface DocRow {
  id: number
  src_updated: number
}

export interface UpsertOptions {
  /** Rewrite the document even when its source's `time_updated` is unchanged (a prune's re-index). */
  force?: boolean
  /** The build, past its watermark: insert without looking the key up first. */
  fresh?: boolean
  /** False when the document's code tokens come through `addTerms` (the build's reader found them). */
  vocabulary?: boolean
}

/**
 * Writes to the sidecar. Callers hold its write transaction; ids mirror `time * 4096 + slot`
 * (doc-id.ts), so rowid order is newest first. Code tokens go to the trigram vocabulary that
 * serves substring search.
 */
export function createIndexWriter(db: SqliteDb) {
  const knownTerms = new Set<string>()
  // Next free recency key per millisecond bucket, valid inside one transaction (see `begin`).
  const nextSlot = new Map<number, number>()

  /** Find the next free slot of each bucket (a millisecond's first key) not yet known in this transaction, in one query. */
  function lookUpSlots(keyBases: readonly number[]) {
    const bases = [...new Set(keyBases)].filter((b) => !nextSlot.has(b))
    if (bases.length === 0) return
    // A bucket's keys base..base+4095 are ids idOfKey(base)-4095..idOfKey(base): its newest is the smallest id.
    const rows = db.rowsSql<[number, number | null]>(
      `SELECT value, (SELECT min(id) FROM doc WHERE id <= ${idOfKey(0)} - value AND id > ${idOfKey(0)} - value - ${SLOTS}) FROM json_each(?)`, [JSON.stringify(bases)])
    for (const [base, min] of rows) nextSlot.set(base, min === null ? base : keyOfId(min) + 1)
  }

  /**
   * The next free id of `time`'s millisecond; a full one (4,096 documents) spills into the next,
   * or, past the last bucket ids can hold (times clamped at 2039, bogus future stamps), the previous.
   */
  function allocateId(time: number): number {
    const start = keyBase(time)
    for (let base = start, step = SLOTS; ; base += step) {
      if (base > LAST_KEY_BASE) {
        step = -SLOTS
        base = start
        continue
      }
      if (base < 0) throw new Error('no free search document id left')
      if (!nextSlot.has(base)) lookUpSlots([base])
      const next = nextSlot.get(base)!
      if (next < base + SLOTS) {
        nextSlot.set(base, next + 1)
        return idOfKey(next)
      }
    }
  }

  const metaFor = createMetaText()

  // New code tokens of this transaction, written in one statement by `flush`.
  const pendingTerms = new Set<string>()

  // FTS5 flushes its in-memory index whenever a write's rowid is not above the previous one, so
  // full-text writes wait here and go out in ascending rowid order at `flush` (several times
  // faster than writing in source order, whose times jump back and forth between sessions).
  const ftsInserts = new Map<number, unknown[]>()
  const ftsDeletes = new Set<number>()
  /** Ids first inserted in this transaction: never in the full-text table yet. */
  const newIds = new Set<number>()
  const dropFts = (id: number) => {
    ftsInserts.delete(id)
    if (!newIds.has(id)) ftsDeletes.add(id)
  }

  const removeById = (id: number) => {
    dropFts(id)
    db.runSql(`DELETE FROM doc WHERE id = ?`, [id])
  }

  return {
    /** Call at the start of every write transaction: cached id slots are only valid inside one. */
    begin() {
      nextSlot.clear()
      pendingTerms.clear()
      ftsInserts.clear()
      ftsDeletes.clear()
      newIds.clear()
    },
    /**
     * Call before every commit: writes the full-text changes in rowid order, then new code tokens.
     * `trigrams: false` (the initial build) leaves their substring index to `rebuildTrigrams`.
     */
    flush(trigrams = true) {
      for (const id of [...ftsDeletes].sort((a, b) => a - b)) db.runSql(`DELETE FROM fts WHERE rowid = CAST(? AS INTEGER)`, [id])
      for (const id of [...ftsInserts.keys()].sort((a, b) => a - b)) {
        db.runSql(`INSERT INTO fts(rowid, title, body, tool, input, output, meta) VALUES (CAST(? AS INTEGER), ?, ?, ?, ?, ?, ?)`, [id, ...ftsInserts.get(id)!])
      }
      ftsDeletes.clear()
      ftsInserts.clear()
      newIds.clear()
      const fresh = [...pendingTerms].filter((t) => !knownTerms.has(t))
      pendingTerms.clear()
      if (fresh.length === 0) return
      if (knownTerms.size + fresh.length > 200_000) knownTerms.clear()
      for (const t of fresh) knownTerms.add(t)
      const before = trigrams ? db.getSql<{ m: number | null }>(`SELECT max(id) AS m FROM vocab`)!.m ?? 0 : 0
      db.runSql(`INSERT OR IGNORE INTO vocab(term) SELECT value FROM json_each(?)`, [JSON.stringify(fresh)])
      if (trigrams) db.runSql(`INSERT INTO vocab_tri(rowid, term) SELECT id, term FROM vocab WHERE id > ?`, [before])
    },
    /**
     * Index every code token for substring search in one pass (the end of the initial build):
     * one trigram segment instead of a small one per transaction, merged over and over.
     */
    rebuildTrigrams() {
      db.runSql(`INSERT INTO vocab_tri(vocab_tri) VALUES ('rebuild')`)
    },
    /**
     * Look up the free slots of these documents' milliseconds in one query, not one per document
     * (a build batch's documents rarely share a millisecond).
     */
    reserveSlots: (times: readonly number[]) => lookUpSlots(times.map(keyBase)),
    /** Code tokens found by the build's reader thread (its documents skip `upsert`'s own, `vocabulary: false`). */
    addTerms(terms: readonly string[]) {
      for (const t of terms) pendingTerms.add(t)
    },
    /** Insert or replace one document; unchanged sources are skipped unless forced. Returns text bytes indexed. */
    upsert(doc: DocInput, { force = false, fresh = false, vocabulary = true }: UpsertOptions = {}): number {
      const f = doc.fields
      const bytes = f.title.length + f.body.length + f.input.length + f.output.length + (f.tool?.length ?? 0)
      const insertDoc = (or: string) => {
        const id = allocateId(doc.time)
        const n = db.runSql(
          `INSERT ${or} INTO doc(id, gen, session_id, message_id, part_key, kind, tool, time, src_updated, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [id, doc.gen, doc.sessionID, doc.messageID, doc.partKey, f.kind, f.tool, doc.time, doc.srcUpdated, bytes])
        if (n !== 1) return undefined
        newIds.add(id)
        return id
      }
      // The build inserts blindly; a document some other path indexed first falls back to the upsert.
      let id = fresh ? insertDoc('OR IGNORE') : undefined
      if (id === undefined) {
        const existing = db.getSql<DocRow>(
          `SELECT id, src_updated FROM doc WHERE gen = ? AND session_id = ? AND message_id = ? AND part_key = ?`,
          [doc.gen, doc.sessionID, doc.messageID, doc.partKey])
        if (existing && existing.src_updated === doc.srcUpdated && !force) return 0
        if (existing) {
          id = existing.id
          dropFts(id)
          db.runSql(`UPDATE doc SET kind = ?, tool = ?, src_updated = ?, bytes = ? WHERE id = ?`, [f.kind, f.tool, doc.srcUpdated, bytes, id])
        } else id = insertDoc('')!
      }
      ftsInserts.set(id, [f.title, f.body, f.tool ?? '', f.input, f.output, metaFor(doc)])
      if (vocabulary) documentCodeTokens(f, pendingTerms)
      return bytes
    },
    /** Remove one document by its key; true when there was one. */
    remove(key: DocKey): boolean {
      const row = db.getSql<{ id: number }>(`SELECT id FROM doc WHERE gen = ? AND session_id = ? AND message_id = ? AND part_key = ?`,
        [key.gen, key.sessionID, key.messageID, key.partKey])
      if (row) removeById(row.id)
      return !!row
    },
    removeIds(ids: readonly number[]) {
      for (const id of ids) removeById(id)
    },
    /** Documents of one message: part key → id. */
    messageDocs(gen: StorageGeneration, sessionID: string, messageID: string): Map<string, number> {
      const rows = db.allSql<{ id: number; part_key: string }>(
        `SELECT id, part_key FROM doc WHERE gen = ? AND session_id = ? AND message_id = ?`, [gen, sessionID, messageID])
      return new Map(rows.map((r) => [r.part_key, r.id]))
    },
    /** Documents of one session, title included. */
    sessionDocs(gen: StorageGeneration, sessionID: string): Array<{ id: number; message_id: string; part_key: string }> {
      return db.allSql(`SELECT id, message_id, part_key FROM doc WHERE gen = ? AND session_id = ?`, [gen, sessionID])
    },
    removeSession(gen: StorageGeneration, sessionID: string): number {
      const ids = db.allSql<{ id: number }>(`SELECT id FROM doc WHERE gen = ? AND session_id = ?`, [gen, sessionID]).map((r) => r.id)
      for (const id of ids) removeById(id)
      db.runSql(`DELETE FROM sess WHERE gen = ? AND id = ?`, [gen, sessionID])
      return ids.length
    },
  }
}

export type IndexWriter = ReturnType<typeof createIndexWriter>
