import { parentPort, workerData } from 'node:worker_threads'
import { applyConnectionMemory } from '../../lib/connection-memory.js'
import { openSqlite } from '../../lib/sqlite.js'
import { probeSchema } from '../../store/probe.js'
import { buildDoctorReport, type DoctorProgress, type DoctorReport } from './doctor-report.js'

/** What the main thread passes to the doctor's scan thread. */
export interface DoctorWorkerData {
  path: string
  readonly: boolean
  dataDir: string
  fileSizes: { db: number; wal: number }
}

export type DoctorWorkerMessage =
  | { type: 'progress'; progress: DoctorProgress }
  | { type: 'done'; report: DoctorReport }
  | { type: 'error'; message: string }

const data = workerData as DoctorWorkerData
const post = (m: DoctorWorkerMessage) => parentPort?.postMessage(m)

// Its own connection: the scan reads the whole event log and must not hold the server's event loop.
try {
  const db = openSqlite(data.path, { readonly: data.readonly, fileMustExist: true, busyTimeoutMs: 5000 })
  applyConnectionMemory(db, 'storageJob')
  try {
    let last = 0
    const report = buildDoctorReport({
      db,
      layout: probeSchema(db),
      path: data.path,
      dataDir: data.dataDir,
      fileSizes: data.fileSizes,
      now: Date.now,
      onProgress: (progress) => {
        const t = Date.now()
        if (t - last < 100 && progress.fraction < 1) return
        last = t
        post({ type: 'progress', progress })
      },
    })
    post({ type: 'done', report })
  } finally {
    db.close()
  }
} catch (error) {
  post({ type: 'error', message: error instanceof Error ? error.message : String(error) })
}
