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

export function createCleanEstimate(api: Api): Query<CleanEstimate> {
  return createQuery(() => CLEAN_IDLE_DAYS, (idleDays, signal) => api.storage.cleanPlan.query({ rule: { idleDays } }, { signal }))
}
