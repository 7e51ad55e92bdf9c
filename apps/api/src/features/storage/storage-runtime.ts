import { createDoctorRuntime, type DoctorRuntime } from './doctor.service.js'
import { createReclaimRunner, type ReclaimRunner } from './reclaim-runner.js'

/**
 * What the Storage feature keeps between requests, per Loupe process (a deps field; tests get
 * their own): the doctor's cached report and running scan, the one running reclaim, and how the
 * search index is run, so a reclaim can start it again over the swapped file.
 */
export interface StorageRuntime {
  doctor: DoctorRuntime
  reclaim: ReclaimRunner
  searchIndexMode: 'worker' | 'manual'
}

export function createStorageRuntime(searchIndexMode: 'worker' | 'manual'): StorageRuntime {
  return { doctor: createDoctorRuntime(), reclaim: createReclaimRunner(), searchIndexMode }
}
