import { describe, expect, it } from 'vitest'
import { DAY_MS, localDay, summarizeUsage, USAGE_SERIES_MAX, weekStartDay, type UsageCell, type UsageSession, type UsageSummaryOptions } from './usage-summary.js'

const NOW = Date.UTC(2026, 10, 29, 12) // a Sunday
const TODAY = localDay(NOW, 0)
const tokens = (input: number, output = 0) => ({ input, output, reasoning: 0, cacheRead: 0, cacheWrite: 0 })
const cell = (day: number, sessionID: string, modelID: string, input: number, cost: number): UsageCell => ({
  day, storage: 'v1', sessionID, providerID: 'p', modelID, messages: 1, tokens: tokens(input), cost,
})
const session = (id: string, projectID: string, input: number, cost: number): UsageSession => ({ storage: 'v1', id, title: id.toUpperCase(), projectID, tokens: tokens(input), cost })
const OPTIONS: UsageSummaryOptions = { now: NOW, tzOffsetMinutes: 0, days: 30, interval: 'day', groupBy: 'model', projectNames: new Map([['prj', 'Project A']]) }

describe('weekStartDay', () => {
  it.each([
    ['2026-11-23', '2026-11-23'], // Monday
    ['2026-11-29', '2026-11-23'], // Sunday
    ['1970-01-01', '1969-12-29'], // Thursday, the epoch
  ])('puts %s in the week of Monday %s', (date, monday) => {
    expect(weekStartDay(Date.parse(date) / DAY_MS)).toBe(Date.parse(monday) / DAY_MS)
  })
})

describe('localDay', () => {
  it('cuts days at the offset given: 23:30 UTC is the next day at UTC+1 and the same day at UTC−5', () => {
    const t = Date.UTC(2026, 10, 28, 23, 30)
    expect(localDay(t, 60)).toBe(localDay(Date.UTC(2026, 10, 29), 0))
    expect(localDay(t, -300)).toBe(localDay(Date.UTC(2026, 10, 28), 0))
  })
})

describe('summarizeUsage', () => {
  const cells = [cell(TODAY, 'a', 'm1', 100, 1), cell(TODAY - 1, 'a', 'm2', 50, 0.5), cell(TODAY - 40, 'b', 'm1', 7, 0.07)]
  const sessions = [session('a', 'prj', 150, 1.5), session('b', 'other', 7, 0.07)]

  it('fills every day of the range, stacks by model, and leaves out what is older', () => {
    const s = summarizeUsage(cells, sessions, OPTIONS)
    expect(s.buckets).toHaveLength(30)
    expect(s.buckets.at(-1)).toEqual({ start: TODAY * DAY_MS, date: '2026-11-29' })
    expect(s.series.map((x) => [x.label, x.totalTokens, x.tokens.at(-1), x.tokens.at(-2)])).toEqual([['m1', 100, 100, 0], ['m2', 50, 0, 50]])
    expect(s.totals).toMatchObject({ totalTokens: 150, cost: 1.5, messages: 2, sessions: 1 })
    expect(s.topSessions).toEqual([{ storage: 'v1', id: 'a', title: 'A', projectID: 'prj', project: 'Project A', tokens: 150, cost: 1.5, messages: 2 }])
  })

  it('groups by project and by ISO week over all time, the first week starting at the first day with usage', () => {
    const s = summarizeUsage(cells, sessions, { ...OPTIONS, days: null, interval: 'week', groupBy: 'project' })
    expect(s.buckets[0]?.start).toBe((TODAY - 40) * DAY_MS)
    expect(s.buckets.at(-1)?.date).toBe('2026-11-23')
    expect(s.series.map((x) => [x.label, x.totalTokens])).toEqual([['Project A', 150], ['other', 7]])
    expect(s.series[0]?.tokens.at(-1)).toBe(150)
    expect(s.bucketTokens.reduce((n, t) => n + t.input, 0)).toBe(157)
  })

  it('reports sessions whose own totals differ from their messages, over all time', () => {
    expect(summarizeUsage(cells, sessions, OPTIONS).agreement).toMatchObject({ sessions: 2, differing: 0 })
    const off = summarizeUsage(cells, [session('a', 'prj', 151, 1.5), sessions[1]!], OPTIONS).agreement
    expect(off).toMatchObject({ differing: 1, sessionTokens: 158, messageTokens: 157 })
  })

  it(`folds series past ${USAGE_SERIES_MAX} into one "others" series that keeps the sums`, () => {
    const many = Array.from({ length: 12 }, (_, i) => cell(TODAY, 'a', `m${i}`, 100 - i, 0.01))
    const s = summarizeUsage(many, sessions, OPTIONS)
    expect(s.series).toHaveLength(USAGE_SERIES_MAX)
    expect(s.series.at(-1)?.label).toBe('5 others')
    expect(s.series.reduce((n, x) => n + x.totalTokens, 0)).toBe(s.totals.totalTokens)
  })

  it('answers an empty file with an empty all-time range', () => {
    const s = summarizeUsage([], [], { ...OPTIONS, days: null })
    expect(s.buckets).toHaveLength(1)
    expect(s.series).toEqual([])
    expect(s.totals.totalTokens).toBe(0)
  })
})
