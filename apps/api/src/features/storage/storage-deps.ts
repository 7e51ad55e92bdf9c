import fs from 'node:fs'
import type { AppDeps } from '../../deps.js'
import { createSearchIndex } from '../../index/search-index.js'
import type { DoctorDeps } from './doctor.service.js'
import type { ReclaimDeps } from './reclaim.service.js'
import { removeWithSidecars } from './reclaim-files.js'

export const doctorDepsOf = (deps: AppDeps): DoctorDeps => ({ opencode: deps.opencode, doctor: deps.storage.doctor })

/**
 * The server's reclaim: the search sidecar is closed before the swap and started again on the
 * file the path names after it. The sidecar is keyed by the file's inode and its watermarks are
 * rowids, which a rebuilt file need not keep, so after a swap the old sidecar is removed and a
 * fresh one is built (that also leaves no pruned tokens in it).
 */
export function reclaimDepsOf(deps: AppDeps): ReclaimDeps {
  let oldIndex: string | null = null
  return {
    opencode: deps.opencode,
    opencodeClient: deps.opencodeClient,
    clock: deps.clock,
    runner: deps.storage.reclaim,
    // Work of this process that reads or writes the file on the connection a swap closes.
    busyWith: () =>
      deps.storage.doctor.job ? 'The storage doctor is still scanning the file; reclaim when it has finished.'
      : deps.compaction.status().state === 'running' ? 'The event log is being compacted; reclaim when it has finished (or stop it).'
      : deps.storage.clean.status().state === 'running' ? 'A clean-up is running; reclaim when it has finished (or stop it).'
      : null,
    sidecar: {
      release: async () => {
        oldIndex = deps.searchIndex.file
        await deps.searchIndex.close()
      },
      restart: (swapped) => {
        if (swapped && oldIndex && fs.existsSync(oldIndex)) removeWithSidecars(oldIndex)
        deps.pruning.wal.deferred = false
        deps.searchIndex = createSearchIndex({ opencode: deps.opencode, dataDir: deps.config.dataDir, events: deps.events, mode: deps.storage.searchIndexMode })
      },
    },
  }
}
