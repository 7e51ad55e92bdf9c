import type { Breakdown, BreakdownEntry } from './bytes.data'

/** One bar: a label, its bytes and what share of the session it is. */
export interface Slice {
  key: string
  label: string
  bytes: number
  count: number
  tokens: number | null
  /** A CSS color token name (`--c-…`). */
  color: string
}

export interface BytesModel {
  total: number
  /** The overview: part kinds, then message info, then the event log. */
  overview: Slice[]
  byKind: Slice[]
  byTool: Slice[]
  events: Slice[]
  eventBytes: number
}

const KIND_COLOR: Record<string, string> = {
  tool: '--c-tool', reasoning: '--c-reasoning', text: '--c-text', file: '--c-file',
  'step-start': '--c-step', 'step-finish': '--c-step', patch: '--c-step', snapshot: '--c-step', compaction: '--c-step',
}
const KIND_LABEL: Record<string, string> = {
  tool: 'Tool calls', reasoning: 'Reasoning', text: 'Text', file: 'Files and images', 'step-start': 'Step start',
  'step-finish': 'Step finish', patch: 'Patches', snapshot: 'Snapshots', compaction: 'Compaction', agent: 'Agent', subtask: 'Subtasks', retry: 'Retries',
}

function group(entries: BreakdownEntry[], keyOf: (e: BreakdownEntry) => string, make: (key: string) => Pick<Slice, 'label' | 'color'>): Slice[] {
  const out = new Map<string, Slice>()
  for (const entry of entries) {
    const key = keyOf(entry)
    const slice = out.get(key) ?? { key, ...make(key), bytes: 0, count: 0, tokens: null }
    slice.bytes += entry.bytes
    slice.count += entry.count
    if (entry.tokens !== null) slice.tokens = (slice.tokens ?? 0) + entry.tokens
    out.set(key, slice)
  }
  return [...out.values()].sort((a, b) => b.bytes - a.bytes)
}

/** Group the API's rows for the chart: by part kind, by tool, message info and the event log. */
export function buildBytesModel(breakdown: Pick<Breakdown, 'entries' | 'totalBytes'>): BytesModel {
  const parts = breakdown.entries.filter((e) => e.area === 'part')
  const messages = breakdown.entries.filter((e) => e.area === 'message')
  const eventRows = breakdown.entries.filter((e) => e.area === 'event')
  const byKind = group(parts, (e) => e.kind, (k) => ({ label: KIND_LABEL[k] ?? k, color: KIND_COLOR[k] ?? '--c-other' }))
  const byTool = group(parts.filter((e) => e.kind === 'tool'), (e) => e.tool ?? '(unnamed)', (k) => ({ label: k, color: '--c-tool' }))
  const events = group(eventRows, (e) => e.kind, (k) => ({ label: k, color: '--c-events' }))
  const info = group(messages, () => 'message-info', () => ({ label: 'Message info', color: '--c-info' }))
  const eventBytes = events.reduce((sum, s) => sum + s.bytes, 0)
  const eventTotal: Slice[] = eventBytes > 0 ? [{ key: 'event-log', label: 'Event log', bytes: eventBytes, count: events.reduce((n, s) => n + s.count, 0), tokens: null, color: '--c-events' }] : []
  return { total: breakdown.totalBytes, overview: [...byKind, ...info, ...eventTotal].filter((s) => s.bytes > 0), byKind, byTool, events, eventBytes }
}

/** A share as a percentage string for labels: `42%`, `0.4%`, `<0.1%`. */
export function formatShare(bytes: number, total: number): string {
  if (total <= 0) return '0%'
  const pct = (bytes / total) * 100
  if (pct > 0 && pct < 0.1) return '<0.1%'
  return `${pct < 10 ? pct.toFixed(1).replace(/\.0$/, '') : Math.round(pct)}%`
}
