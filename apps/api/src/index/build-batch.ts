import { documentCodeTokens, type StorageGeneration } from '@loupe/domain'
import { NO_SCOPE, sessionKey, v1Doc, v2Docs, type SessionScope } from './index-docs.js'
import { createMetaText, type DocInput } from './index-writer.js'
import type { IndexSourceReader, RowStamp, V1PartRow, V2MessageRow } from './opencode-source.js'

/** Where the initial build stands: the phase and the last rowid read of each table. */
export interface BuildCursor {
  phase: 'v1' | 'v2' | 'done'
  v1After: number
  v2After: number
}

/**
 * Rows (from, to] of one table turned into documents, ready to write. The batch is stale, and its
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

/** Rows per read: small enough that a batch stops near its byte limit, large enough to amortize a query. */
export const CHUNK_ROWS = 256

/** One string for a run of row stamps: equal strings, same rows in the same versions. */
export const stampsKey = (rows: readonly RowStamp[]): string => rows.map((r) => `${r.rid}:${r.time_updated}:${r.len}`).join(',')

/** Documents of OpenCode rows, with the session scopes they need, cached. */
export function createDocReader(source: IndexSourceReader, scopes: Map<string, SessionScope> = new Map()) {
  const scopeOf = (gen: StorageGeneration, id: string): SessionScope => {
    const key = sessionKey(gen, id)
    let scope = scopes.get(key)
    if (!scope) {
      const s = source.session(gen, id)
      scope = s ? { projectID: s.project_id, directory: s.directory } : NO_SCOPE
      scopes.set(key, scope)
    }
    return scope
  }
  return {
    scopes,
    meta: createMetaText(),
    /** One entry per row: its document, or null when it has nothing to search. */
    v1: (rows: readonly V1PartRow[]): Array<DocInput | null> => rows.map((row) => v1Doc(row, scopeOf('v1', row.session_id))),
    v2: (row: V2MessageRow): DocInput[] => v2Docs(row, scopeOf('v2', row.session_id)),
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
export function readBatch(source: IndexSourceReader, docs: DocReader, from: BuildCursor, limits: BatchLimits, { upTo, withTerms = true }: ReadBatchOptions = {}): BuildBatch {
  const to = { ...from }
  const out: DocInput[] = []
  const stamps: RowStamp[] = []
  const terms = new Set<string>()
  let rows = 0
  let bytes = 0
  const take = (doc: DocInput | null) => {
    if (!doc) return
    const f = doc.fields
    if (withTerms) documentCodeTokens(f, terms)
    bytes += f.title.length + f.body.length + f.input.length + f.output.length
    out.push({ ...doc, meta: docs.meta(doc) })
  }
  while (to.phase !== 'done' && (upTo || (rows < limits.rows && bytes < limits.bytes))) {
    const v1 = to.phase === 'v1'
    const chunk = v1 ? source.v1Chunk(to.v1After, CHUNK_ROWS, upTo?.v1After) : source.v2Chunk(to.v2After, CHUNK_ROWS / 4, upTo?.v2After)
    if (chunk.length === 0) {
      if (upTo) Object.assign(to, upTo)
      else to.phase = v1 && source.generations.v2 ? 'v2' : 'done'
      break
    }
    if (v1) docs.v1(chunk as V1PartRow[]).forEach(take)
    else for (const row of chunk as V2MessageRow[]) docs.v2(row).forEach(take)
    stamps.push(...chunk)
    if (v1) to.v1After = chunk.at(-1)!.rid
    else to.v2After = chunk.at(-1)!.rid
    rows += chunk.length
  }
  return { stamps: stampsKey(stamps), from, to, rows, docs: out, terms: withTerms ? [...terms] : null }
}
