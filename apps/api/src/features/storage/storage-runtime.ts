import { createCleanRunner, type CleanRunner } from './clean-runner.js'
import { createDoctorRuntime, type DoctorRuntime } from './doctor.service.js'
import { createReclaimRunner, type ReclaimRunner } from './reclaim-runner.js'

/**
 * What the Storage feature keeps between requests, per Loupe process (a deps field; tests get
 * their own): the doctor's cached report and running scan, the one running reclaim and clean-up, the queue of clean-up plans, and how the
 * search index is run, so a reclaim can start it again over the swapped file.
 */
export interface StorageRuntime {
  doctor: DoctorRuntime
  reclaim: ReclaimRunner
  clean: CleanRunner
  /** Clean-up plans run one at a time, each after the one before (clean-plan.service.ts). */
  cleanPlans: { tail: Promise<unknown> }
  searchIndexMode: 'worker' | 'manual'
}

/** `afterJob` runs when a reclaim or a clean-up has settled. */
export function createStorageRuntime(searchIndexMode: 'worker' | 'manual', afterJob?: () => void): StorageRuntime {
  return { doctor: createDoctorRuntime(), reclaim: createReclaimRunner(afterJob), clean: createCleanRunner(afterJob), cleanPlans: { tail: Promise.resolve() }, searchIndexMode }
}
