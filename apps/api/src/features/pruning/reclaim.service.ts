import fs from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import type { AppDeps } from '../../deps.js'
import { fileHolders } from '../../opencode/file-holders.js'

export type ReclaimPhase = 'vacuum' | 'checkpoint' | 'index'

export interface FileBytes {
  db: number
  wal: number
}

/** The state of the one reclaim a Loupe process runs at a time. */
export type ReclaimStatus =
  | { state: 'idle' }
  | { state: 'running'; phase: ReclaimPhase | 'starting'; startedAt: number; before: FileBytes; now: FileBytes; expectedBytes: number }
  | {
      state: 'done'
      startedAt: number
      finishedAt: number
      before: FileBytes
      after: FileBytes
      walEmptied: boolean
      /** The search sidecar: merged and rebuilt without pruned tokens, or why not. */
      index: 'compacted' | 'busy' | 'absent' | 'failed'
      message: string
    }
  | { state: 'failed'; startedAt: number; finishedAt: number; before: FileBytes; after: FileBytes; message: string }

export type ReclaimStart =
  | { status: 'started' }
  | { status: 'blocked'; reason: 'maintenance_required' | 'unavailable'; detail: string }

/** Holds the running reclaim; one per Loupe process (a deps field, so tests get their own). */
export interface ReclaimRunner {
  status(now: FileBytes): ReclaimStatus
  begin(job: Extract<ReclaimStatus, { state: 'running' }>): boolean
  update(patch: Partial<Extract<ReclaimStatus, { state: 'running' }>>): void
  finish(result: Extract<ReclaimStatus, { state: 'done' | 'failed' }>): void
  /** Resolves when the current job (if any) settles. */
  settled(): Promise<void>
}

export function createReclaimRunner(): ReclaimRunner {
  let current: ReclaimStatus = { state: 'idle' }
  const waiters: Array<() => void> = []
  return {
    status: (now) => (current.state === 'running' ? { ...current, now } : current),
    begin(job) {
      if (current.state === 'running') return false
      current = job
      return true
    },
    update(patch) {
      if (current.state === 'running') current = { ...current, ...patch }
    },
    finish(result) {
      current = result
      for (const w of waiters.splice(0)) w()
    },
    settled: () => (current.state === 'running' ? new Promise<void>((r) => waiters.push(r)) : Promise.resolve()),
  }
}

/** Whether something answers at `--opencode-url`: anything but "nothing listens there" counts as running. */
async function opencodeAnswers(deps: AppDeps): Promise<boolean> {
  const { url } = deps.opencodeClient
  if (!url) return false
  const answer = await deps.opencodeClient.request(url, { method: 'GET', path: '/global/health', purpose: 'status' })
  return !(answer.kind === 'unreachable' && answer.cause === 'refused')
}

/** What a reclaim would work on, and whether it can run now. */
export function reclaimCheck(deps: AppDeps) {
  const { db } = deps.opencode
  const pageSize = Number(db.raw.pragma('page_size', { simple: true }))
  const pages = Number(db.raw.pragma('page_count', { simple: true }))
  const free = Number(db.raw.pragma('freelist_count', { simple: true }))
  const holders = fileHolders(deps.opencode.path)
  return {
    path: deps.opencode.path,
    files: deps.opencode.fileSizes(),
    pageSize,
    freeBytes: free * pageSize,
    expectedBytes: (pages - free) * pageSize,
    holders,
    status: deps.pruning.reclaim.status(deps.opencode.fileSizes()),
  }
}

type IndexOutcome = Extract<ReclaimStatus, { state: 'done' }>['index']
const indexOutcome = (raw: string | undefined): IndexOutcome =>
  raw === 'compacted' || raw === 'busy' || raw === 'absent' ? raw : 'failed'
const INDEX_NOTES: Record<IndexOutcome, string> = {
  compacted: ' The search index was compacted too.',
  busy: ' The search index was busy indexing; reclaim again later to compact it.',
  absent: '',
  failed: ' The search index could not be compacted; it is rebuilt if you delete it from the data dir.',
}

const STOP_OPENCODE = 'Stop OpenCode, then press Reclaim: it has the database open, and a rebuild would make it wait or fail.'

/**
 * Start "Reclaim space": VACUUM + `wal_checkpoint(TRUNCATE)` in a worker thread with its own
 * connection, never on the server's event loop. Refused while OpenCode holds the file, or when the
 * disk lacks room for a rebuilt copy. Progress: `reclaimStatus` (WAL growth against the live size).
 */
export async function startReclaim(deps: AppDeps): Promise<ReclaimStart> {
  if (deps.opencode.readonly) return { status: 'blocked', reason: 'unavailable', detail: 'Loupe opened this file read-only.' }
  const check = reclaimCheck(deps)
  if (check.holders.length > 0) return { status: 'blocked', reason: 'maintenance_required', detail: `${STOP_OPENCODE} (process ${check.holders.join(', ')})` }
  if (await opencodeAnswers(deps)) return { status: 'blocked', reason: 'maintenance_required', detail: STOP_OPENCODE }
  const disk = fs.statfsSync(path.dirname(deps.opencode.path))
  const needed = check.files.db + check.files.wal
  if (disk.bavail * disk.bsize < needed) {
    return { status: 'blocked', reason: 'unavailable', detail: `Reclaiming needs about ${needed} free bytes next to the database.` }
  }
  const before = check.files
  const startedAt = deps.clock.now()
  if (!deps.pruning.reclaim.begin({ state: 'running', phase: 'starting', startedAt, before, now: before, expectedBytes: check.expectedBytes })) {
    return { status: 'blocked', reason: 'maintenance_required', detail: 'A reclaim is already running.' }
  }
  const workerData = { path: deps.opencode.path, busyTimeoutMs: 5000, indexPath: deps.searchIndex.file ?? undefined }
  const worker = new Worker(new URL('./reclaim.worker.mjs', import.meta.url), { workerData })
  const finish = (ok: boolean, message: string, walEmptied = false, index: IndexOutcome = 'absent') => {
    const after = deps.opencode.fileSizes()
    const finishedAt = deps.clock.now()
    deps.pruning.reclaim.finish(ok ? { state: 'done', startedAt, finishedAt, before, after, walEmptied, index, message } : { state: 'failed', startedAt, finishedAt, before, after, message })
  }
  worker.on('message', (m: { type: string; phase?: ReclaimPhase; code?: string; message?: string; checkpoint?: { busy: number }; index?: string }) => {
    if (m.type === 'phase' && m.phase) deps.pruning.reclaim.update({ phase: m.phase })
    if (m.type === 'done') {
      const emptied = m.checkpoint?.busy === 0
      const index = indexOutcome(m.index)
      finish(true, (emptied ? 'Space reclaimed; the write-ahead log is empty.' : `Rebuilt, but the write-ahead log is still in use. ${STOP_OPENCODE}`) + INDEX_NOTES[index], emptied, index)
    }
    if (m.type === 'error') {
      const busy = (m.code ?? '').startsWith('SQLITE_BUSY') || (m.code ?? '').startsWith('SQLITE_LOCKED')
      finish(false, busy ? STOP_OPENCODE : `Reclaim failed (${m.code}): ${m.message}`)
    }
  })
  worker.on('error', (error) => finish(false, `Reclaim failed: ${error.message}`))
  worker.on('exit', () => {
    if (deps.pruning.reclaim.status(before).state === 'running') finish(false, 'Reclaim stopped unexpectedly; nothing was lost, the database is as it was.')
  })
  return { status: 'started' }
}
