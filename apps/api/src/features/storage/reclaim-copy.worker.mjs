// Off the server's event loop: VACUUM INTO of a multi-GB file takes minutes. Plain JS, no loader.
import { parentPort, workerData } from 'node:worker_threads'
import { CopyRejected, isDiskFull, writeVerifiedCopy } from './reclaim-copy.mjs'

const post = (m) => parentPort?.postMessage(m)

try {
  const counts = writeVerifiedCopy(workerData.source, workerData.target, (phase) => post({ type: 'phase', phase }), workerData.cacheKiB)
  post({ type: 'done', counts })
} catch (error) {
  const code = String(error?.code ?? '')
  const message = `${code ? `${code}: ` : ''}${error instanceof Error ? error.message : String(error)}`
  const busy = code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')
  post({ type: 'error', kind: error instanceof CopyRejected ? 'rejected' : isDiskFull(error) ? 'disk_full' : busy ? 'busy' : 'sqlite', message })
}
