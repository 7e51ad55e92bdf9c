import type { Accessor } from 'solid-js'
import { createQuery, type Query } from '../../lib/query'
import type { Api, RouterOutputs } from '../../lib/trpc'
import { browserOffsetMinutes, type OverviewView } from './overview-params'

export type UsageSummary = RouterOutputs['overview']['usage']
export type CleanEstimate = RouterOutputs['storage']['cleanPlan']

/** The usage of the view's range, with days cut at this browser's offset from UTC. */
export function createUsage(api: Api, view: Accessor<OverviewView>): Query<UsageSummary> {
  return createQuery(
    () => ({ ...view(), tzOffsetMinutes: browserOffsetMinutes() }),
    (input, signal) => api.overview.usage.query(input, { signal }),
  )
}

/** What the Storage page's clean-up would remove with its default rule, without applying anything. */
export const CLEAN_IDLE_DAYS = 30

/** Past this size the plan (every idle session's prune plan) takes long enough to wait for a click. */
export const AUTO_ESTIMATE_MAX_BYTES = 256 * 1024 * 1024

/** The estimate, asked for once `wanted` is true. */
export function createCleanEstimate(api: Api, wanted: Accessor<boolean>): Query<CleanEstimate> {
  return createQuery(() => (wanted() ? CLEAN_IDLE_DAYS : null), (idleDays, signal) => api.storage.cleanPlan.query({ rule: { idleDays } }, { signal }))
}
