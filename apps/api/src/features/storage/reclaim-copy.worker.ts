import { parentPort, workerData } from 'node:worker_threads'
import { CopyRejected, isDiskFull, writeVerifiedCopy, type CopyPhase } from './reclaim-copy.js'

export interface CopyWorkerData {
  source: string
  target: string
}

export type CopyWorkerMessage =
  | { type: 'phase'; phase: CopyPhase }
  | { type: 'done'; counts: Record<string, number> }
  | { type: 'error'; kind: 'rejected' | 'disk_full' | 'busy' | 'sqlite'; message: string }

const data = workerData as CopyWorkerData
const post = (m: CopyWorkerMessage) => parentPort?.postMessage(m)

// Off the server's event loop: VACUUM INTO of a multi-GB file takes minutes.
try {
  const counts = writeVerifiedCopy(data.source, data.target, (phase) => post({ type: 'phase', phase }))
  post({ type: 'done', counts })
} catch (error) {
  const code = String((error as { code?: unknown }).code ?? '')
  const message = `${code ? `${code}: ` : ''}${error instanceof Error ? error.message : String(error)}`
  const kind = error instanceof CopyRejected ? 'rejected' : isDiskFull(error) ? 'disk_full' : code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') ? 'busy' : 'sqlite'
  post({ type: 'error', kind, message })
}
