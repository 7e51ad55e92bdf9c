import { documentCodeTokens, type StorageGeneration } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { NO_SCOPE, type DocInput, type IndexSourceStore, type RowStamp, type SessionScope, type SourceRow } from '../store/index-source.js'
import type { IndexSources } from '../store/index-sources.js'
import { sessionKey } from './index-docs.js'
import { createMetaText } from './index-writer.js'

/**
 * Where the initial build stands: the phase (the `gen` of the source being read, in the sources'
 * order, or 'done') and the last rowid read of each source (`cursorKeys.watermark`).
 */
export interface BuildCursor {
  phase: StorageGeneration | 'done'
  v1After: number
  v2After: number
}

/**
 * Rows (from, to] of one source turned into documents, ready to write. The batch is stale, and its
 * rows are read again under the sidecar's write lock (`applyBatch` in the indexer), when the rows'
 * `stamps` no longer match OpenCode's.
 */
export interface BuildBatch {
  /** `stampsKey` of the rows read: a prune deletes 1.x parts and rewrites 2.x rows (new time, new size). */
  stamps: string
  /**
   * OpenCode's `data_version` on the writer's connection, read before this batch's snapshot was
   * taken. While it reads the same, no connection has committed to OpenCode's file since: the batch
   * is current without comparing stamps.
   */
  version?: number
  from: BuildCursor
  to: BuildCursor
  rows: number
  docs: DocInput[]
  /**
   * The documents' code tokens (for the trigram vocabulary); null when the reader left them to the
   * writer (`readBatch`'s `withTerms`).
   */
  terms: string[] | null
}

export interface BatchLimits {
  rows: number
  /** Text bytes: a batch of huge tool outputs ends early, so a write transaction stays short. */
  bytes: number
}

/** One string for a run of row stamps: equal strings, same rows in the same versions. */
export const stampsKey = (rows: readonly RowStamp[]): string => rows.map((r) => `${r.rid}:${r.time_updated}:${r.len}`).join(',')

/** The first phase of a build over these sources. */
export const firstPhase = (sources: IndexSources): BuildCursor['phase'] => (sources.all[0]?.gen ?? 'done')

/** Documents of OpenCode rows, with the session scopes they need, cached. */
export function createDocReader(db: SqliteDb, sources: IndexSources, scopes: Map<string, SessionScope> = new Map()) {
  const scopeOf = (source: IndexSourceStore, id: string): SessionScope => {
    const key = sessionKey(source.gen, id)
    let scope = scopes.get(key)
    if (!scope) {
      const s = source.session(db, id)
      scope = s ? { projectID: s.project_id, directory: s.directory } : NO_SCOPE
      scopes.set(key, scope)
    }
    return scope
  }
  return {
    db,
    sources,
    scopes,
    meta: createMetaText(),
    /** A row's documents, handed to `emit`. */
    docs: (source: IndexSourceStore, row: SourceRow, emit: (doc: DocInput) => void) => source.docs(row, scopeOf(source, row.session_id), emit),
    /** A row's documents as an array. */
    rowDocs(source: IndexSourceStore, row: SourceRow): DocInput[] {
      const out: DocInput[] = []
      source.docs(row, scopeOf(source, row.session_id), (doc) => out.push(doc))
      return out
    },
  }
}

export type DocReader = ReturnType<typeof createDocReader>

export interface ReadBatchOptions {
  /** A stale batch read again: exactly the rows up to this cursor, whatever the limits. */
  upTo?: BuildCursor
  /** Find the documents' code tokens too (default); without, the writer finds them. */
  withTerms?: boolean
}

/**
 * Read the build's next rows from `from` and make their documents, scope tokens and code tokens:
 * everything but the write, so it can run on a thread of its own. Call inside a read transaction
 * of OpenCode's file (one snapshot). A batch never spans two phases.
 */
export function readBatch(reader: DocReader, from: BuildCursor, limits: BatchLimits, { upTo, withTerms = true }: ReadBatchOptions = {}): BuildBatch {
  const to = { ...from }
  const out: DocInput[] = []
  const stamps: RowStamp[] = []
  const terms = new Set<string>()
  let rows = 0
  let bytes = 0
  const take = (doc: DocInput) => {
    const f = doc.fields
    if (withTerms) documentCodeTokens(f, terms)
    bytes += f.title.length + f.body.length + f.input.length + f.output.length
    out.push({ ...doc, meta: reader.meta(doc) })
  }
  while (to.phase !== 'done' && (upTo || (rows < limits.rows && bytes < limits.bytes))) {
    // A phase whose source this file no longer has ends the build; catch-up reads what follows.
    const source = reader.sources.of(to.phase)
    if (!source) {
      Object.assign(to, upTo ?? { phase: 'done' })
      break
    }
    const key = source.cursorKeys.watermark
    const chunk = source.chunk(reader.db, to[key], source.rowsPerRead, upTo?.[key])
    if (chunk.length === 0) {
      if (upTo) Object.assign(to, upTo)
      else to.phase = reader.sources.after(to.phase) as BuildCursor['phase']
      break
    }
    for (const row of chunk) reader.docs(source, row, take)
    stamps.push(...chunk)
    to[key] = chunk.at(-1)!.rid
    rows += chunk.length
  }
  return { stamps: stampsKey(stamps), from, to, rows, docs: out, terms: withTerms ? [...terms] : null }
}
