import fs from 'node:fs'
import { AppError } from '../../errors.js'
import { backupPathFor, listBackups } from './reclaim-files.js'
import { runReclaim, type ReclaimDeps } from './reclaim.service.js'
import type { ReclaimResult } from './reclaim-runner.js'
import type { ReclaimInput, RemoveBackupInput } from './storage.schema.js'

export type ReclaimStart = { status: 'started' } | Extract<ReclaimResult, { status: 'refused' }>

/**
 * The Storage page's Reclaim: checks that refuse come back in the answer; the copy runs in the
 * background and `storage.reclaimStatus` reports its progress and result.
 */
export async function startReclaim(deps: ReclaimDeps, input: ReclaimInput): Promise<ReclaimStart> {
  let settle: (r: ReclaimResult | null) => void = () => {}
  const early = new Promise<ReclaimResult | null>((resolve) => (settle = resolve))
  // The first progress report means every check passed and this job is the one running.
  const run = runReclaim(deps, { keepBackup: input.keepBackup, onProgress: () => settle(null) })
  void run.then((result) => settle(result))
  const first = await early
  return first?.status === 'refused' ? first : { status: 'started' }
}

/** Remove one dated backup a reclaim kept. */
export function removeBackup(db: string, input: RemoveBackupInput): { removed: string } {
  if (!listBackups(db).some((b) => b.stamp === input.stamp)) throw new AppError('not_found', 'No such backup.')
  fs.rmSync(backupPathFor(db, input.stamp), { force: true })
  return { removed: input.stamp }
}
