// Reclaim space in OpenCode's database off the server's event loop: VACUUM rebuilds the file
// without the pages pruning freed (it can take minutes on a multi-GB file, and better-sqlite3 is
// synchronous), then a TRUNCATE checkpoint folds the WAL in and empties it, so no old page
// versions (with pruned bytes) stay behind. Plain JS: runs as a worker_thread under any loader.
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
    post({ type: 'done', checkpoint })
  } finally {
    db.close()
  }
} catch (error) {
  post({ type: 'error', code: typeof error?.code === 'string' ? error.code : 'ERROR', message: String(error?.message ?? error) })
}
