import fs from 'node:fs'
import path from 'node:path'
import { startWorker } from '../../lib/worker.js'
import { AppError } from '../../errors.js'
import type { OpenCodeHandle } from '../../store/open-opencode.js'
import type { DoctorProgress, DoctorReport } from './doctor-report.js'
import type { DoctorWorkerData, DoctorWorkerMessage } from './doctor.worker.js'

interface DoctorJob {
  key: string
  progress: DoctorProgress
  done: Promise<DoctorReport>
  listeners: Set<(p: DoctorProgress) => void>
}

/** The doctor's last report and running scan; one per Loupe process (a deps field). */
export interface DoctorRuntime {
  cache: { key: string; report: DoctorReport } | null
  job: DoctorJob | null
  failure: { key: string; message: string } | null
}

export const createDoctorRuntime = (): DoctorRuntime => ({ cache: null, job: null, failure: null })

export interface DoctorDeps {
  opencode: Pick<OpenCodeHandle, 'db' | 'path' | 'readonly' | 'fileSizes'>
  doctor: DoctorRuntime
  /** OpenCode's data dir whose folders are measured; by default the database's folder. */
  opencodeDataDir?: string
}

export type DoctorStatus =
  | { state: 'running'; progress: DoctorProgress }
  | { state: 'done'; report: DoctorReport }
  | { state: 'failed'; message: string }

const mtime = (file: string) => {
  try {
    return fs.statSync(file).mtimeMs
  } catch {
    return 0
  }
}

/**
 * What a report is valid for: `data_version` moves when another connection (OpenCode) commits,
 * and Loupe's own commits change the WAL's size or time; a swapped file changes the path's sizes.
 */
export function doctorKey(deps: DoctorDeps): string {
  const version = Number(deps.opencode.db.raw.pragma('data_version', { simple: true }))
  const sizes = deps.opencode.fileSizes()
  return [version, sizes.db, sizes.wal, mtime(deps.opencode.path), mtime(`${deps.opencode.path}-wal`)].join(':')
}

function startJob(deps: DoctorDeps, key: string): DoctorJob {
  const workerData: DoctorWorkerData = {
    path: deps.opencode.path,
    readonly: deps.opencode.readonly,
    dataDir: deps.opencodeDataDir ?? path.dirname(deps.opencode.path),
    fileSizes: deps.opencode.fileSizes(),
  }
  const listeners = new Set<(p: DoctorProgress) => void>()
  const job: DoctorJob = { key, progress: { phase: 'tables', fraction: 0 }, listeners, done: Promise.resolve(null as never) }
  job.done = new Promise<DoctorReport>((resolve, reject) => {
    const worker = startWorker(new URL('./doctor.worker.mjs', import.meta.url), workerData, 'storageJob')
    const settle = (error: AppError | null, report?: DoctorReport) => {
      if (deps.doctor.job === job) deps.doctor.job = null
      if (report) {
        deps.doctor.cache = { key, report }
        deps.doctor.failure = null
        resolve(report)
      } else if (error) {
        deps.doctor.failure = { key, message: error.message }
        reject(error)
      }
    }
    worker.on('message', (m: DoctorWorkerMessage) => {
      if (m.type === 'progress') {
        job.progress = m.progress
        for (const l of listeners) l(m.progress)
      } else if (m.type === 'done') settle(null, m.report)
      else settle(new AppError('unavailable', `The storage doctor could not read the database: ${m.message}`))
    })
    worker.on('error', (error) => settle(new AppError('unavailable', `The storage doctor stopped: ${error.message}`)))
    worker.on('exit', () => settle(new AppError('unavailable', 'The storage doctor stopped before it finished.')))
  })
  // A caller that only polls never awaits `done`; its failure is kept in `failure`.
  job.done.catch(() => {})
  deps.doctor.job = job
  return job
}

/** The report for the file as it is now: the cached one, or a scan (joined if one is running). */
export async function runDoctor(deps: DoctorDeps, onProgress?: (p: DoctorProgress) => void): Promise<DoctorReport> {
  const key = doctorKey(deps)
  if (deps.doctor.cache?.key === key) return deps.doctor.cache.report
  const job = deps.doctor.job?.key === key ? deps.doctor.job : startJob(deps, key)
  if (onProgress) job.listeners.add(onProgress)
  try {
    return await job.done
  } finally {
    if (onProgress) job.listeners.delete(onProgress)
  }
}

/** For polling clients: the current report, or the running scan's progress (started when needed). */
export function doctorStatus(deps: DoctorDeps, input: { refresh: boolean } = { refresh: false }): DoctorStatus {
  const key = doctorKey(deps)
  if (!input.refresh && deps.doctor.cache?.key === key) return { state: 'done', report: deps.doctor.cache.report }
  if (deps.doctor.job) return { state: 'running', progress: deps.doctor.job.progress }
  if (!input.refresh && deps.doctor.failure?.key === key) return { state: 'failed', message: deps.doctor.failure.message }
  const job = startJob(deps, key)
  return { state: 'running', progress: job.progress }
}
