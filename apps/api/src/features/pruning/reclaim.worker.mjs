// Reclaim space in OpenCode's database off the server's event loop: VACUUM rebuilds the file
// without the pages pruning freed (it can take minutes on a multi-GB file, and better-sqlite3 is
// synchronous), then a TRUNCATE checkpoint folds the WAL in and empties it, so no old page
// versions (with pruned bytes) stay behind. Then the same for Loupe's search sidecar: FTS5 keeps a
// pruned text's tokens in older segments until they merge, so 'optimize' merges them all, code
// tokens no document holds any more leave the vocabulary, and VACUUM drops the freed pages.
// Plain JS: runs as a worker_thread under any loader.
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'

const post = (message) => parentPort?.postMessage(message)

try {
  const db = new Database(workerData.path, { fileMustExist: true })
  try {
    db.pragma(`busy_timeout = ${workerData.busyTimeoutMs ?? 5000}`)
    db.pragma('secure_delete = ON')
    post({ type: 'phase', phase: 'vacuum' })
    db.exec('VACUUM')
    post({ type: 'phase', phase: 'checkpoint' })
    const [checkpoint] = db.pragma('wal_checkpoint(TRUNCATE)')
    post({ type: 'phase', phase: 'index' })
    post({ type: 'done', checkpoint, index: workerData.indexPath ? compactIndex(workerData.indexPath) : 'absent' })
  } finally {
    db.close()
  }
} catch (error) {
  post({ type: 'error', code: typeof error?.code === 'string' ? error.code : 'ERROR', message: String(error?.message ?? error) })
}

/** 'compacted', or why not ('busy': the indexer is writing; the next reclaim tries again). */
function compactIndex(file) {
  let index
  try {
    index = new Database(file, { fileMustExist: true })
  } catch {
    return 'absent'
  }
  try {
    index.pragma('busy_timeout = 10000')
    index.pragma('secure_delete = ON')
    index.exec(`INSERT INTO fts(fts) VALUES ('optimize')`)
    // Only ASCII code tokens are compared with the index's own terms: for those the two foldings
    // agree, so no token a document still holds is dropped from substring search.
    index.exec(`CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, 'fts', 'row')`)
    index.exec(`DELETE FROM vocab WHERE term NOT GLOB '*[^a-z0-9]*' AND term NOT IN (SELECT term FROM temp.terms)`)
    index.exec(`INSERT INTO vocab_tri(vocab_tri) VALUES ('rebuild')`)
    index.exec('DROP TABLE temp.terms')
    index.exec('VACUUM')
    index.pragma('wal_checkpoint(TRUNCATE)')
    return 'compacted'
  } catch (error) {
    return String(error?.code ?? '').startsWith('SQLITE_BUSY') ? 'busy' : `failed: ${String(error?.message ?? error)}`
  } finally {
    index.close()
  }
}
