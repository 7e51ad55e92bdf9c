import fs from 'node:fs'
import type { OpenCodeClient } from '../../opencode/opencode-client.js'
import path from 'node:path'
import { startWorker } from '../../lib/worker.js'
import type { Clock } from '../../lib/clock.js'
import { isLoupeProcess, readFileHolders } from '../../opencode/file-holders.js'
import type { OpenCodeHandle } from '../../store/open-opencode.js'
import { readFileFacts } from '../../store/storage-doctor.store.js'
import { CONNECTION_MEMORY } from '../../lib/connection-memory.js'
import type { CopyWorkerData, CopyWorkerMessage } from './reclaim-copy.mjs'
import { copyPathFor, listBackups, removeStaleCopies, removeWithSidecars, stampOf } from './reclaim-files.js'
import type { JobControl } from './job-runner.js'
import type { FileBytes, ReclaimPhase, ReclaimResult, ReclaimRunner, ReclaimRunning } from './reclaim-runner.js'
import { markSource, swapInCopy, type SourceMark } from './reclaim-swap.js'

export interface ReclaimDeps {
  opencode: OpenCodeHandle
  opencodeClient: OpenCodeClient
  clock: Clock
  runner: ReclaimRunner
  /** Loupe's search sidecar of this file: released before the swap, started again on the file the path names after it. */
  sidecar: { release(): Promise<void>; restart(swapped: boolean): void }
  /** Work of this process that reads the file on its own connection (the doctor's scan): why to wait, or null. */
  busyWith?: () => string | null
}

export interface ReclaimOptions {
  /** Keep the original as `<db>.backup-<stamp>` until the user removes it (the default), or remove it at once. */
  keepBackup: boolean
  onProgress?: (phase: ReclaimPhase, copyBytes: number, expectedBytes: number) => void
}

// The copy must fit beside the database, with room for SQLite's own overhead while writing it.
const DISK_MARGIN = 1.05
const DISK_SLACK_BYTES = 16 * 1024 * 1024
const STOP_OPENCODE = 'Stop OpenCode, then reclaim: it has the database open, and a swapped file would be invisible to it.'

/** Why a held file refuses a swap, naming another Loupe as Loupe rather than as OpenCode. */
function heldBy(holders: number[]): string {
  const loupe = holders.filter(isLoupeProcess)
  const others = holders.filter((pid) => !loupe.includes(pid))
  const alsoLoupe = loupe.length ? ` Another Loupe (pid ${loupe.join(', ')}) has it open too.` : ''
  if (others.length) return `${STOP_OPENCODE} (process ${others.join(', ')})${alsoLoupe}`
  return `Another Loupe (pid ${loupe.join(', ')}) has the database open: close it (a second \`loupe\` server or \`loupe mcp\`), then reclaim; a swapped file would be invisible to it.`
}

/** True when an OpenCode server answers at the configured URL (live-safety swaps in the one client). */
/** Whether something answers at `--opencode-url`: anything but "nothing listens there" counts as running. */
export async function opencodeAnswers(deps: { opencodeClient: OpenCodeClient }): Promise<boolean> {
  const { url } = deps.opencodeClient
  if (!url) return false
  const answer = await deps.opencodeClient.request(url, { method: 'GET', path: '/global/health', purpose: 'status' })
  return !(answer.kind === 'unreachable' && answer.cause === 'refused')
}

/** Who else has the file open; `holdersKnown` is false where the system cannot tell (then a swap is refused). */
function holdersOf(file: string): { holders: number[]; holdersKnown: boolean } {
  const holders = readFileHolders(file)
  return { holders: holders ?? [], holdersKnown: holders !== null }
}

/** What a reclaim would work on and whether it can run now. */
export function reclaimCheck(deps: ReclaimDeps) {
  const facts = readFileFacts(deps.opencode.db)
  const disk = fs.statfsSync(path.dirname(deps.opencode.path))
  return {
    path: deps.opencode.path,
    files: deps.opencode.fileSizes(),
    pageSize: facts.pageSize,
    freeBytes: facts.freePages * facts.pageSize,
    expectedBytes: (facts.pages - facts.freePages) * facts.pageSize,
    diskFreeBytes: disk.bavail * disk.bsize,
    ...holdersOf(deps.opencode.path),
    backups: listBackups(deps.opencode.path),
    state: deps.runner.status(),
  }
}

type Check = ReturnType<typeof reclaimCheck>

type CopyOutcome = { ok: true } | { ok: false; kind: 'rejected' | 'disk_full' | 'busy' | 'sqlite'; message: string }

function copyInWorker(source: string, target: string, onPhase: (p: ReclaimPhase) => void): Promise<CopyOutcome> {
  const workerData: CopyWorkerData = { source, target, cacheKiB: CONNECTION_MEMORY.storageJob.cacheKiB }
  return new Promise((resolve) => {
    const worker = startWorker(new URL('./reclaim-copy.worker.mjs', import.meta.url), workerData, 'storageJob')
    let outcome: CopyOutcome = { ok: false, kind: 'sqlite', message: 'the copy stopped unexpectedly' }
    worker.on('message', (m: CopyWorkerMessage) => {
      if (m.type === 'phase') onPhase(m.phase)
      else if (m.type === 'done') outcome = { ok: true }
      else outcome = { ok: false, kind: m.kind, message: m.message }
    })
    worker.on('error', (error) => (outcome = { ok: false, kind: 'sqlite', message: error.message }))
    worker.on('exit', () => resolve(outcome))
  })
}

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0)

type Refuse = (reason: Extract<ReclaimResult, { status: 'refused' }>['reason'], detail: string) => ReclaimResult

/** Every check before anything is written: the reclaim's plan, or why not now. */
async function preflight(deps: ReclaimDeps, refuse: Refuse): Promise<Check | ReclaimResult> {
  const { opencode, runner } = deps
  if (opencode.readonly) return refuse('unavailable', 'Loupe opened this file read-only.')
  if (runner.status().state === 'running') return refuse('maintenance_required', 'A reclaim is already running.')
  const busy = deps.busyWith?.()
  if (busy) return refuse('maintenance_required', busy)
  if (!opencode.isSameFile()) return refuse('replaced', 'The database file was replaced since Loupe opened it; restart Loupe to open the new one.')
  const check = reclaimCheck(deps)
  if (!check.holdersKnown) return refuse('maintenance_required', `Loupe cannot tell which processes have the file open on this system (no /proc, no lsof), so it cannot know OpenCode is stopped. ${STOP_OPENCODE}`)
  if (check.holders.length > 0) return refuse('maintenance_required', heldBy(check.holders))
  if (await opencodeAnswers(deps)) return refuse('maintenance_required', STOP_OPENCODE)
  const needed = Math.ceil(check.expectedBytes * DISK_MARGIN) + DISK_SLACK_BYTES
  if (check.diskFreeBytes < needed) return refuse('disk_space', `Reclaiming needs about ${needed} free bytes beside the database; ${check.diskFreeBytes} are free.`)
  return check
}

function copyFailure(copied: Extract<CopyOutcome, { ok: false }>, before: FileBytes, after: FileBytes, refuse: Refuse): ReclaimResult {
  if (copied.kind === 'busy') return refuse('maintenance_required', STOP_OPENCODE)
  const detail = copied.kind === 'disk_full'
    ? `Writing the copy failed: the disk is full, or the file is larger than this system allows (${copied.message}). The copy was removed and the database is untouched; free some space and reclaim again.`
    : `The compacted copy was not used: ${copied.message}. The database is untouched.`
  const reason = copied.kind === 'disk_full' ? 'disk_full' : copied.kind === 'rejected' ? 'rejected' : 'error'
  return { status: 'failed', reason, detail, before, after, backup: null }
}

/** Release the sidecar, swap, start the sidecar again on whatever file the path names. */
async function swapIn(deps: ReclaimDeps, copy: string, stamp: string, mark: SourceMark, before: FileBytes, keepBackup: boolean, refuse: Refuse): Promise<ReclaimResult> {
  await deps.sidecar.release()
  let swapped = false
  try {
    const swap = swapInCopy(deps.opencode, copy, stamp, mark, keepBackup)
    swapped = swap.ok
    if (!swap.ok) {
      removeWithSidecars(copy)
      return refuse(swap.reason, swap.detail)
    }
    const after = deps.opencode.fileSizes()
    const wal = after.wal === 0 ? 'the write-ahead log is empty' : 'the write-ahead log is in use again'
    const message = swap.backup ? `Space reclaimed; ${wal}. The original is kept as ${path.basename(swap.backup)} until you remove it.` : `Space reclaimed; ${wal}. The original was removed.`
    return { status: 'done', before, after, backup: swap.backup, message }
  } finally {
    deps.sidecar.restart(swapped)
  }
}

/** The reclaim itself, once every check passed: copy, verify, swap; never throws. */
async function copyAndSwap(deps: ReclaimDeps, options: ReclaimOptions, check: Check, before: FileBytes, refuse: Refuse, job: JobControl<ReclaimRunning>): Promise<ReclaimResult> {
  const { opencode } = deps
  const stamp = stampOf(job.startedAt)
  const copy = copyPathFor(opencode.path, stamp)
  let phase: ReclaimPhase = 'starting'
  const report = () => {
    const copyBytes = sizeOf(copy)
    job.report({ phase, copyBytes })
    options.onProgress?.(phase, copyBytes, check.expectedBytes)
  }
  const timer = setInterval(report, 250)
  try {
    removeStaleCopies(opencode.path)
    const mark = markSource(opencode)
    const copied = await copyInWorker(opencode.path, copy, (p) => ((phase = p), report()))
    if (!copied.ok) {
      removeWithSidecars(copy)
      return copyFailure(copied, before, opencode.fileSizes(), refuse)
    }
    phase = 'swap'
    report()
    return await swapIn(deps, copy, stamp, mark, before, options.keepBackup, refuse)
  } catch (error) {
    removeWithSidecars(copy)
    return { status: 'failed', reason: 'error', detail: `Reclaim failed: ${(error as Error).message}. The database is untouched.`, before, after: opencode.fileSizes(), backup: null }
  } finally {
    clearInterval(timer)
  }
}

/**
 * Reclaim space with `VACUUM INTO`: check free disk, write a compacted copy beside the database,
 * verify it, and swap it in atomically while no other process holds the file; the original stays
 * as a dated backup unless asked otherwise. On any failure the copy is removed and the original
 * is untouched. Refusals are answers (`status: 'refused'`), never thrown.
 */
export async function runReclaim(deps: ReclaimDeps, options: ReclaimOptions): Promise<ReclaimResult> {
  const { opencode, runner, clock } = deps
  const before: FileBytes = opencode.fileSizes()
  const refuse: Refuse = (reason, detail) => ({ status: 'refused', reason, detail, before, after: opencode.fileSizes(), backup: null })
  const check = await preflight(deps, refuse)
  if ('status' in check) return check
  const initial: ReclaimRunning = { phase: 'starting', before, copyBytes: 0, expectedBytes: check.expectedBytes }
  const running = runner.run({ now: () => clock.now(), initial }, (job) => copyAndSwap(deps, options, check, before, refuse, job))
  return running ?? refuse('maintenance_required', 'A reclaim is already running.')
}
