import Database from 'better-sqlite3'
import { openIndexDb } from '../src/index/index-db.js'
import { createIndexer } from '../src/index/indexer.js'
import { indexSourcesOf } from '../src/store/index-sources.js'
import type { OpenCodeHandle } from '../src/store/open-opencode.js'

/** What a sidecar holds, to compare two builds: document keys, full-text rows, code tokens. */
export function docKeys(file: string) {
  const db = new Database(file, { readonly: true })
  const keys = (db.prepare(`SELECT gen || ' ' || session_id || ' ' || message_id || ' ' || part_key AS k FROM doc ORDER BY k`).all() as Array<{ k: string }>).map((r) => r.k)
  const fts = (db.prepare(`SELECT count(*) AS n FROM fts`).get() as { n: number }).n
  const vocab = (db.prepare(`SELECT count(*) AS n FROM vocab`).get() as { n: number }).n
  db.close()
  return { keys, fts, vocab }
}

/** A sidecar at `file` and an indexer from OpenCode's `opencode` into it, started. */
export function openIndexer(opencode: OpenCodeHandle, file: string) {
  const index = openIndexDb(file, { path: opencode.path, identity: opencode.identity })
  const indexer = createIndexer({ sourceDb: opencode.db, sources: indexSourcesOf(opencode), index, now: Date.now })
  indexer.start()
  return { index, indexer }
}
