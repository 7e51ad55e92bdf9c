import { createCleanRunner, type CleanRunner } from './clean-runner.js'
import { createDoctorRuntime, type DoctorRuntime } from './doctor.service.js'
import { createReclaimRunner, type ReclaimRunner } from './reclaim-runner.js'

/**
 * What the Storage feature keeps between requests, per Loupe process (a deps field; tests get
 * their own): the doctor's cached report and running scan, the one running reclaim and clean-up, and how the
 * search index is run, so a reclaim can start it again over the swapped file.
 */
export interface StorageRuntime {
  doctor: DoctorRuntime
  reclaim: ReclaimRunner
  clean: CleanRunner
  searchIndexMode: 'worker' | 'manual'
}

export function createStorageRuntime(searchIndexMode: 'worker' | 'manual'): StorageRuntime {
  return { doctor: createDoctorRuntime(), reclaim: createReclaimRunner(), clean: createCleanRunner(), searchIndexMode }
}
