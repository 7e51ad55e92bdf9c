import { USAGE_GROUPS, USAGE_INTERVALS, USAGE_RANGES, type UsageGroup, type UsageInterval, type UsageRange } from '@loupe/domain'

/** The overview's view state as it sits in the URL: `/overview?range=90&interval=week&by=project`. */
export interface OverviewView {
  days: UsageRange
  interval: UsageInterval
  groupBy: UsageGroup
}

export const DEFAULT_VIEW: OverviewView = { days: 30, interval: 'day', groupBy: 'model' }

export const rangeParam = (days: UsageRange): string => (days === null ? 'all' : String(days))

/** Each parameter falls back to its default when absent or unknown (a hand-edited link still opens). */
export function parseOverviewView(params: { range?: string | undefined; interval?: string | undefined; by?: string | undefined }): OverviewView {
  const days = USAGE_RANGES.find((d) => rangeParam(d) === params.range) ?? DEFAULT_VIEW.days
  const interval = USAGE_INTERVALS.find((i) => i === params.interval) ?? DEFAULT_VIEW.interval
  const groupBy = USAGE_GROUPS.find((g) => g === params.by) ?? DEFAULT_VIEW.groupBy
  return { days: params.range === 'all' ? null : days, interval, groupBy }
}

/**
 * The URL parameters of a change to the view, only for what changed (two quick changes must not
 * undo each other), a default as no parameter so the plain `/overview` stays plain.
 */
export function overviewParams(change: Partial<OverviewView>): Partial<Record<'range' | 'interval' | 'by', string | undefined>> {
  const out: Partial<Record<'range' | 'interval' | 'by', string | undefined>> = {}
  if (change.days !== undefined) out.range = change.days === DEFAULT_VIEW.days ? undefined : rangeParam(change.days)
  if (change.interval) out.interval = change.interval === DEFAULT_VIEW.interval ? undefined : change.interval
  if (change.groupBy) out.by = change.groupBy === DEFAULT_VIEW.groupBy ? undefined : change.groupBy
  return out
}

/** Minutes east of UTC in this browser now (what `overview.usage` cuts days at). */
export const browserOffsetMinutes = (): number => -new Date().getTimezoneOffset()
