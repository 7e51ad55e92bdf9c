// What FTS5 alone costs on this machine: the built sidecar's own text, written again into a fresh
// index with the sidecar's settings, in one transaction, from a plain table, with no JS at all.
// No build can be faster than this (it also reads and parses OpenCode's rows), so the build's rate
// over this floor separates the code from the machine.
import type Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { openIndexDb, setBuildMerging } from '../apps/api/src/index/index-db.js'

export interface FtsFloor {
  /** Seconds: the inserts, then the build's final merge (`optimize`). */
  insertS: number
  optimizeS: number
}

/** Time FTS5 writing the text of `indexPath` again, in a scratch file under `dir` (deleted after). */
export function measureFtsFloor(indexPath: string, dir: string): FtsFloor {
  const file = path.join(dir, 'fts-floor.sqlite')
  const index = openIndexDb(file, { path: 'fts-floor', identity: { dev: 0, ino: 0 } })
  try {
    const raw: Database.Database = index.raw
    raw.pragma('cache_size = -65536')
    // The text as a plain table first, so the timed statement reads no FTS5 structure.
    raw.prepare(`ATTACH ? AS built`).run(indexPath)
    raw.exec(`CREATE TEMP TABLE text AS SELECT id, c0, c1, c2, c3, c4, c5 FROM built.fts_content; DETACH built`)
    setBuildMerging(index, true)
    const t0 = performance.now()
    raw.transaction(() => raw.exec(`INSERT INTO fts(rowid, title, body, tool, input, output, meta) SELECT * FROM temp.text`))()
    const t1 = performance.now()
    raw.exec(`INSERT INTO fts(fts) VALUES ('optimize')`)
    return { insertS: (t1 - t0) / 1000, optimizeS: (performance.now() - t1) / 1000 }
  } finally {
    index.close()
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true })
  }
}
