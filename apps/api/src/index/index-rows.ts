import type { StorageGeneration } from '@loupe/domain'
import type { IndexSourceStore, SourceRow } from '../store/index-source.js'
import type { DocReader } from './build-batch.js'
import type { IndexWriter } from './index-writer.js'

/** Documents written and removed by re-reading rows. */
export interface RowsIndexed {
  bytes: number
  removed: number
}

/**
 * Re-reading OpenCode rows into the sidecar outside the build (catch-up, the sweep, a prune's
 * re-index): each row's documents replace those it owned, inside the caller's write transaction.
 */
export function createRowIndexer(reader: DocReader, writer: IndexWriter) {
  /** Replace the documents of these rows, dropping those a row no longer has. */
  function indexRows(source: IndexSourceStore, rows: readonly SourceRow[], force = false): RowsIndexed {
    const out: RowsIndexed = { bytes: 0, removed: 0 }
    for (const row of rows) {
      const docs = reader.rowDocs(source, row)
      const owner = source.owner(row)
      if (owner.partKey !== null) {
        // A row of one document (a part): `upsert` finds it by key, no listing of the message's.
        for (const doc of docs) out.bytes += writer.upsert(doc, { force })
        if (docs.length === 0 && writer.remove({ gen: source.gen, sessionID: owner.sessionID, messageID: owner.messageID, partKey: owner.partKey })) out.removed++
        continue
      }
      const existing = writer.messageDocs(source.gen, owner.sessionID, owner.messageID)
      for (const doc of docs) {
        existing.delete(doc.partKey)
        out.bytes += writer.upsert(doc, { force })
      }
      writer.removeIds([...existing.values()])
      out.removed += existing.size
    }
    return out
  }

  /**
   * Re-read one message of a session and replace its documents: parts removed from it lose
   * theirs. Returns documents removed.
   */
  function reindexMessage(source: IndexSourceStore | undefined, gen: StorageGeneration, sessionID: string, messageID: string): number {
    const before = writer.messageDocs(gen, sessionID, messageID)
    const rows = source?.messageRows(reader.db, messageID) ?? []
    if (source) {
      for (const row of rows) {
        if (source.owner(row).sessionID !== sessionID) continue
        for (const doc of reader.rowDocs(source, row)) {
          before.delete(doc.partKey)
          writer.upsert(doc, { force: true })
        }
      }
    }
    writer.removeIds([...before.values()])
    return before.size
  }

  return { indexRows, reindexMessage }
}

export type RowIndexer = ReturnType<typeof createRowIndexer>
