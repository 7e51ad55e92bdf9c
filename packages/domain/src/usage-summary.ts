import type { StorageGeneration } from './ids.js'

/** Ranges the overview offers, in days back from today (null: all time). */
export const USAGE_RANGES = [30, 90, 365, null] as const
export type UsageRange = (typeof USAGE_RANGES)[number]
export const USAGE_INTERVALS = ['day', 'week'] as const
export type UsageInterval = (typeof USAGE_INTERVALS)[number]
export const USAGE_GROUPS = ['model', 'project'] as const
export type UsageGroup = (typeof USAGE_GROUPS)[number]

/** Minutes east of UTC the days are cut at (UTC−12 … UTC+14). */
export const TZ_OFFSET_MINUTES_MAX = 14 * 60
export const DAY_MS = 86_400_000
/** Series past this many are summed into one "other" series. */
export const USAGE_SERIES_MAX = 8
export const USAGE_TOP_SESSIONS = 10

export interface UsageTokens {
  input: number
  output: number
  reasoning: number
  cacheRead: number
  cacheWrite: number
}

/** What the store reads: the assistant messages of one session on one local day with one model. */
export interface UsageCell {
  /** Days since 1970-01-01 in the client's offset. */
  day: number
  storage: StorageGeneration
  sessionID: string
  providerID: string
  modelID: string
  messages: number
  tokens: UsageTokens
  cost: number
}

/** A session's own totals (the columns its Bytes tab shows), to check the messages against. */
export interface UsageSession {
  storage: StorageGeneration
  id: string
  title: string
  projectID: string
  tokens: UsageTokens
  cost: number
}

export interface UsageSummaryOptions {
  now: number
  tzOffsetMinutes: number
  days: UsageRange
  interval: UsageInterval
  groupBy: UsageGroup
  /** Project id → the name to show. */
  projectNames: ReadonlyMap<string, string>
}

export interface UsageSeries {
  key: string
  label: string
  /** Per bucket, all five kinds of tokens summed. */
  tokens: number[]
  cost: number[]
  totalTokens: number
  totalCost: number
  messages: number
}

export interface UsageSummary {
  interval: UsageInterval
  groupBy: UsageGroup
  days: UsageRange
  tzOffsetMinutes: number
  /** Contiguous buckets, oldest first; `start` is the epoch ms of the local midnight, `date` its local YYYY-MM-DD. */
  buckets: { start: number; date: string }[]
  /** Per bucket, tokens by kind. */
  bucketTokens: UsageTokens[]
  series: UsageSeries[]
  totals: { tokens: UsageTokens; totalTokens: number; cost: number; messages: number; sessions: number }
  topSessions: { id: string; storage: StorageGeneration; title: string; projectID: string; project: string; tokens: number; cost: number; messages: number }[]
  /** All time: do the messages add up to the sessions' own totals? */
  agreement: UsageAgreement
}

/** Whether each session's assistant messages add up to its own totals; a few of those that do not, largest gap first. */
export interface UsageAgreement {
  sessions: number
  differing: number
  sessionTokens: number
  messageTokens: number
  sessionCost: number
  messageCost: number
  examples: { id: string; storage: StorageGeneration; title: string; sessionTokens: number; messageTokens: number; sessionCost: number; messageCost: number }[]
}

const AGREEMENT_EXAMPLES = 5

const ZERO: UsageTokens = { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 }
const KINDS = Object.keys(ZERO) as (keyof UsageTokens)[]

/** All five kinds summed, as the session list's Tokens column counts them. */
export const totalTokens = (t: UsageTokens): number => t.input + t.output + t.reasoning + t.cacheRead + t.cacheWrite

const addTokens = (into: UsageTokens, t: UsageTokens) => {
  for (const k of KINDS) into[k] += t[k]
}

/** The local day (days since the epoch) of an epoch-ms time at this offset. */
export const localDay = (timeMs: number, tzOffsetMinutes: number): number => Math.floor((timeMs + tzOffsetMinutes * 60_000) / DAY_MS)

/** The Monday starting the ISO week of this local day (1970-01-01 was a Thursday). */
export const weekStartDay = (day: number): number => day - ((((day + 3) % 7) + 7) % 7)

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10)

/** Cost sums are floats: equal within a millionth of a cent. */
const sameCost = (a: number, b: number) => Math.abs(a - b) <= 1e-8 * Math.max(1, Math.abs(a), Math.abs(b))

function checkAgreement(cells: readonly UsageCell[], sessions: readonly UsageSession[]): UsageAgreement {
  const byMessages = new Map<string, { tokens: UsageTokens; cost: number }>()
  for (const c of cells) {
    const key = `${c.storage}:${c.sessionID}`
    const sum = byMessages.get(key) ?? { tokens: { ...ZERO }, cost: 0 }
    addTokens(sum.tokens, c.tokens)
    sum.cost += c.cost
    byMessages.set(key, sum)
  }
  const out = { sessions: sessions.length, differing: 0, sessionTokens: 0, messageTokens: 0, sessionCost: 0, messageCost: 0 }
  const examples: UsageAgreement['examples'] = []
  for (const s of sessions) {
    const m = byMessages.get(`${s.storage}:${s.id}`) ?? { tokens: ZERO, cost: 0 }
    const pair = { sessionTokens: totalTokens(s.tokens), messageTokens: totalTokens(m.tokens), sessionCost: s.cost, messageCost: m.cost }
    out.sessionTokens += pair.sessionTokens
    out.sessionCost += pair.sessionCost
    out.messageTokens += pair.messageTokens
    out.messageCost += pair.messageCost
    if (KINDS.every((k) => s.tokens[k] === m.tokens[k]) && sameCost(s.cost, m.cost)) continue
    out.differing += 1
    examples.push({ id: s.id, storage: s.storage, title: s.title, ...pair })
  }
  const gap = (e: UsageAgreement['examples'][number]) => Math.abs(e.sessionTokens - e.messageTokens)
  return { ...out, examples: examples.sort((a, b) => gap(b) - gap(a)).slice(0, AGREEMENT_EXAMPLES) }
}

interface Bucketing {
  first: number
  last: number
  count: number
  indexOf: (day: number) => number
  startDay: (index: number) => number
}

/** The range's days: the last N up to today, or (all time) from the first day with usage to the last, today at least (a clock behind OpenCode's loses nothing). */
function bucketsFor(cells: readonly UsageCell[], today: number, options: UsageSummaryOptions): Bucketing {
  const all = options.days === null
  const from = options.days === null ? cells.reduce((min, c) => Math.min(min, c.day), today) : today - options.days + 1
  const last = all ? cells.reduce((max, c) => Math.max(max, c.day), today) : today
  if (options.interval === 'day') {
    return { first: from, last, count: last - from + 1, indexOf: (d) => d - from, startDay: (i) => from + i }
  }
  const first = weekStartDay(from)
  return { first: from, last, count: Math.floor((weekStartDay(last) - first) / 7) + 1, indexOf: (d) => Math.floor((weekStartDay(d) - first) / 7), startDay: (i) => Math.max(from, first + i * 7) }
}

/**
 * Tokens and cost of the assistant messages per local day or ISO week (Monday first; the first
 * week starts at the range's first day), stacked by model or by project, with the biggest sessions
 * of the range and an all-time check against the sessions' own totals. Pure: `now` is passed in.
 */
export function summarizeUsage(cells: readonly UsageCell[], sessions: readonly UsageSession[], options: UsageSummaryOptions): UsageSummary {
  const today = localDay(options.now, options.tzOffsetMinutes)
  const b = bucketsFor(cells, today, options)
  const inRange = cells.filter((c) => c.day >= b.first && c.day <= b.last)
  const sessionOf = new Map(sessions.map((s) => [`${s.storage}:${s.id}`, s]))
  const projectName = (id: string) => options.projectNames.get(id) || id
  const groups = new Map<string, UsageSeries>()
  const bucketTokens = Array.from({ length: b.count }, () => ({ ...ZERO }))
  const totals = { tokens: { ...ZERO }, totalTokens: 0, cost: 0, messages: 0, sessions: 0 }
  const perSession = new Map<string, { storage: StorageGeneration; id: string; tokens: number; cost: number; messages: number }>()
  for (const c of inRange) {
    const i = b.indexOf(c.day)
    const key = `${c.storage}:${c.sessionID}`
    const projectID = sessionOf.get(key)?.projectID ?? ''
    const [groupKey, label] = options.groupBy === 'model'
      ? [`${c.providerID}/${c.modelID}`, c.modelID || c.providerID || 'unknown model']
      : [projectID, projectName(projectID) || 'unknown project']
    const series = groups.get(groupKey) ?? { key: groupKey, label, tokens: new Array<number>(b.count).fill(0), cost: new Array<number>(b.count).fill(0), totalTokens: 0, totalCost: 0, messages: 0 }
    groups.set(groupKey, series)
    const tokens = totalTokens(c.tokens)
    series.tokens[i]! += tokens
    series.cost[i]! += c.cost
    series.totalTokens += tokens
    series.totalCost += c.cost
    series.messages += c.messages
    addTokens(bucketTokens[i]!, c.tokens)
    addTokens(totals.tokens, c.tokens)
    totals.cost += c.cost
    totals.messages += c.messages
    const s = perSession.get(key) ?? { storage: c.storage, id: c.sessionID, tokens: 0, cost: 0, messages: 0 }
    perSession.set(key, { ...s, tokens: s.tokens + tokens, cost: s.cost + c.cost, messages: s.messages + c.messages })
  }
  totals.totalTokens = totalTokens(totals.tokens)
  totals.sessions = perSession.size
  return {
    interval: options.interval,
    groupBy: options.groupBy,
    days: options.days,
    tzOffsetMinutes: options.tzOffsetMinutes,
    buckets: Array.from({ length: b.count }, (_, i) => {
      const day = b.startDay(i)
      return { start: day * DAY_MS - options.tzOffsetMinutes * 60_000, date: dateOf(day) }
    }),
    bucketTokens,
    series: foldSeries([...groups.values()], b.count),
    totals,
    topSessions: [...perSession.entries()]
      .sort((x, y) => y[1].tokens - x[1].tokens || y[1].cost - x[1].cost || (x[0] < y[0] ? -1 : 1))
      .slice(0, USAGE_TOP_SESSIONS)
      .map(([key, sums]) => {
        const s = sessionOf.get(key)
        return { ...sums, title: s?.title ?? '', projectID: s?.projectID ?? '', project: projectName(s?.projectID ?? '') }
      }),
    agreement: checkAgreement(cells, sessions),
  }
}

/** Largest first (by tokens, then cost); past USAGE_SERIES_MAX, the rest summed as "other". */
function foldSeries(all: UsageSeries[], count: number): UsageSeries[] {
  const sorted = all.sort((a, b) => b.totalTokens - a.totalTokens || b.totalCost - a.totalCost || (a.key < b.key ? -1 : 1))
  if (sorted.length <= USAGE_SERIES_MAX) return sorted
  const kept = sorted.slice(0, USAGE_SERIES_MAX - 1)
  const other: UsageSeries = { key: '', label: `${sorted.length - kept.length} others`, tokens: new Array<number>(count).fill(0), cost: new Array<number>(count).fill(0), totalTokens: 0, totalCost: 0, messages: 0 }
  for (const s of sorted.slice(kept.length)) {
    for (let i = 0; i < count; i++) {
      other.tokens[i]! += s.tokens[i]!
      other.cost[i]! += s.cost[i]!
    }
    other.totalTokens += s.totalTokens
    other.totalCost += s.totalCost
    other.messages += s.messages
  }
  return [...kept, other]
}
