import type { StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import type { DocInput, DocKey } from '../store/index-source.js'
import { createSlotAllocator } from './doc-slots.js'
import { createFtsBuffer, createVocabulary } from './fts-buffer.js'
import { metaText, metaToken } from './fts-query.js'

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

const textBytes = (doc: DocInput) => {
  const f = doc.fields
  return f.title.length + f.body.length + f.input.length + f.output.length + (f.tool?.length ?? 0)
}

/**
 * Writes to the sidecar. Callers hold its write transaction; ids mirror `time * 4096 + slot`
 * (doc-id.ts), so rowid order is newest first. Code tokens go to the trigram vocabulary that
 * serves substring search.
 */
export function createIndexWriter(db: SqliteDb) {
  const slots = createSlotAllocator(db)
  const fts = createFtsBuffer(db)
  const vocabulary = createVocabulary(db)
  const metaFor = createMetaText()

  const removeById = (id: number) => {
    fts.drop(id)
    db.runSql(`DELETE FROM doc WHERE id = ?`, [id])
  }
  /** Insert a new `doc` row (`or`: a conflict clause); its id, or undefined when nothing was inserted. */
  function insertDoc(doc: DocInput, bytes: number, or: string): number | undefined {
    const id = slots.allocate(doc.time)
    const n = db.runSql(
      `INSERT ${or} INTO doc(id, gen, session_id, message_id, part_key, kind, tool, time, src_updated, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [id, doc.gen, doc.sessionID, doc.messageID, doc.partKey, doc.fields.kind, doc.fields.tool, doc.time, doc.srcUpdated, bytes])
    if (n !== 1) return undefined
    fts.markNew(id)
    return id
  }
  /** Point an existing document's row at a new version of its source; undefined when it is current. */
  function updateDoc(doc: DocInput, bytes: number, force: boolean): number | undefined {
    const existing = db.getSql<DocRow>(
      `SELECT id, src_updated FROM doc WHERE gen = ? AND session_id = ? AND message_id = ? AND part_key = ?`,
      [doc.gen, doc.sessionID, doc.messageID, doc.partKey])
    if (!existing) return insertDoc(doc, bytes, '')
    if (existing.src_updated === doc.srcUpdated && !force) return undefined
    fts.drop(existing.id)
    db.runSql(`UPDATE doc SET kind = ?, tool = ?, src_updated = ?, bytes = ? WHERE id = ?`, [doc.fields.kind, doc.fields.tool, doc.srcUpdated, bytes, existing.id])
    return existing.id
  }

  return {
    /** Call at the start of every write transaction: cached id slots are only valid inside one. */
    begin() {
      slots.begin()
      vocabulary.begin()
      fts.begin()
    },
    /**
     * Call before every commit: writes the full-text changes in rowid order, then new code tokens.
     * `trigrams: false` (the initial build) leaves their substring index to `rebuildTrigrams`.
     */
    flush(trigrams = true) {
      fts.flush()
      vocabulary.flush(trigrams)
    },
    rebuildTrigrams: vocabulary.rebuild,
    reserveSlots: slots.reserve,
    /** Code tokens found by the build's reader thread (its documents skip `upsert`'s own, `vocabulary: false`). */
    addTerms: vocabulary.addTerms,
    /** Insert or replace one document; unchanged sources are skipped unless forced. Returns text bytes indexed. */
    upsert(doc: DocInput, { force = false, fresh = false, vocabulary: withTerms = true }: UpsertOptions = {}): number {
      const bytes = textBytes(doc)
      // The build inserts blindly; a document some other path indexed first falls back to the upsert.
      const id = (fresh ? insertDoc(doc, bytes, 'OR IGNORE') : undefined) ?? updateDoc(doc, bytes, force)
      if (id === undefined) return 0
      const f = doc.fields
      fts.set(id, [f.title, f.body, f.tool ?? '', f.input, f.output, metaFor(doc)])
      if (withTerms) vocabulary.addDocument(f)
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
      const ids = db.pluckSql<number>(`SELECT id FROM doc WHERE gen = ? AND session_id = ?`, [gen, sessionID])
      for (const id of ids) removeById(id)
      db.runSql(`DELETE FROM sess WHERE gen = ? AND id = ?`, [gen, sessionID])
      return ids.length
    },
  }
}

export type IndexWriter = ReturnType<typeof createIndexWriter>
