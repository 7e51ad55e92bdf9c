const BYTE_UNITS = ['KB', 'MB', 'GB', 'TB'] as const

/** 1024-based sizes: `512 B`, `1.5 KB`, `12 KB`, `3.2 MB`. One decimal below 10 units. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—'
  if (bytes < 1024) return `${Math.round(bytes)} B`
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024
    unit++
  }
  const digits = value < 10 ? 1 : 0
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${BYTE_UNITS[unit]}`
}

/** Compact counts for tokens and the like: `950`, `1.2k`, `34k`, `2.5M`. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return '—'
  const abs = Math.abs(n)
  if (abs < 1000) return String(Math.round(n))
  if (abs < 1_000_000) return `${(n / 1000).toFixed(abs < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`
  return `${(n / 1_000_000).toFixed(abs < 10_000_000 ? 1 : 0).replace(/\.0$/, '')}M`
}

/** Dollars with enough precision for the tiny per-step costs models report. */
export function formatCost(dollars: number): string {
  if (!Number.isFinite(dollars) || dollars <= 0) return '$0'
  if (dollars >= 1) return `$${dollars.toFixed(2)}`
  if (dollars >= 0.01) return `$${dollars.toFixed(3)}`
  return `$${dollars.toPrecision(2)}`
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** "just now", "5 min ago", "3 h ago", "yesterday", "4 d ago", then a date. `now` is passed in for tests. */
export function formatRelativeTime(at: number, now: number = Date.now()): string {
  const diff = now - at
  if (diff < 45_000) return 'just now'
  if (diff < HOUR) return `${Math.round(diff / MINUTE)} min ago`
  if (diff < DAY) return `${Math.round(diff / HOUR)} h ago`
  if (diff < 2 * DAY) return 'yesterday'
  if (diff < 7 * DAY) return `${Math.floor(diff / DAY)} d ago`
  const date = new Date(at)
  const sameYear = date.getFullYear() === new Date(now).getFullYear()
  return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) })
}

/** The absolute time shown on hover. */
export function formatAbsoluteTime(at: number): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' })
}

/** Durations between two epoch-ms stamps: `850 ms`, `4.2 s`, `3 min 5 s`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—'
  if (ms < 1000) return `${Math.round(ms)} ms`
  if (ms < MINUTE) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
  const minutes = Math.floor(ms / MINUTE)
  const seconds = Math.round((ms % MINUTE) / 1000)
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`
}

/** One definition of UTF-8 length, shared with the server (domain). */
export { utf8Length } from '@loupe/domain'

/** `1 message`, `3 messages`. */
export const plural = (n: number, word: string, many = `${word}s`) => `${n.toLocaleString()} ${n === 1 ? word : many}`

/** A working directory as its last two segments (`code/harbor-api`): enough to tell projects apart. */
export const shortDirectory = (path: string) => path.split(/[\\/]/).filter(Boolean).slice(-2).join('/')

/** How much of a typed text to repeat back in a sentence or a tab title (a pasted page is cut). */
export const QUOTED_CHARS = 80

/**
 * Typed text as a sentence quotes it: spacing collapsed, cut with an ellipsis past `max`, in
 * curly quotes unless it is one "quoted phrase" already (no “"…"”).
 */
export function quoteTyped(text: string, max = QUOTED_CHARS): string {
  const flat = text.trim().replace(/\s+/g, ' ')
  const long = [...flat].length > max
  const cut = long ? `${[...flat].slice(0, max - 1).join('').trimEnd()}…` : flat
  if (!/^"[^"]*"?$/.test(flat) || flat.length < 2) return `“${cut}”`
  // One phrase, quoted already: cut, it keeps its closing quote.
  return long || !flat.endsWith('"') ? `${cut}"` : cut
}

/** "2 tool calls and 1 reasoning block", leaving out a kind there is none of. */
export function technicalParts(tools: number, reasoning: number): string {
  const kinds = [tools > 0 ? plural(tools, 'tool call') : '', reasoning > 0 ? plural(reasoning, 'reasoning block') : ''].filter(Boolean)
  return kinds.length ? kinds.join(' and ') : 'no tool calls or reasoning'
}

// The AI SDK's finish reasons, as OpenCode stores them on step-finish parts.
const FINISH_REASONS: Record<string, string> = {
  stop: 'finished',
  'tool-calls': 'called tools',
  length: 'hit the output limit',
  'content-filter': 'stopped by the content filter',
  error: 'stopped on an error',
  other: 'stopped',
  unknown: 'stopped',
}

/** Why a model step ended, in words ("called tools" for `tool-calls`); an unknown reason is shown as stored. */
export function describeFinishReason(reason: string): string {
  return FINISH_REASONS[reason] ?? reason
}
