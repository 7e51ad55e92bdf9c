import { Show } from 'solid-js'
import { formatCount, plural } from '../../lib/format'
import type { SearchAnswer } from './search.data'

export interface SearchSummaryProps {
  answer: SearchAnswer | undefined
  count: number
  loading: 'initial' | 'more' | false
  /** The query was longer than what is searched. */
  shortened: boolean
  /** The answer is to an earlier query or filters; the current one is on its way. */
  stale?: boolean
}

/** How far the literal scan is, in whole percent (never 100 before it is over). */
export const scannedPercent = (a: SearchAnswer) => Math.min(99, Math.floor((a.scan?.progress ?? 0) * 100))

/** "42 results", or what the numbers mean when they are partial (capped ranking, literal scan). */
export function SearchSummary(props: SearchSummaryProps) {
  const text = () => {
    const a = props.answer
    if (!a) return props.loading ? 'Searching…' : ''
    if (a.mode === 'scan') return `${plural(props.count, 'literal match', 'literal matches')}${a.cursor ? ` so far · ${scannedPercent(a)}% of history scanned` : ''}`
    const total = a.total ?? props.count
    return a.truncated ? `best of the ${formatCount(total)} newest matches` : plural(total, 'result')
  }
  return (
    // Busy: a screen reader hears the new count once it lands, not the old one again.
    <span class="page-summary" aria-live="polite" aria-busy={props.stale || undefined}>
      {text()}
      <Show when={props.answer?.truncated}>
        <span class="muted" title="A very common word: only the newest matches were ranked. Add words to narrow it down."> · refine to see older ones</span>
      </Show>
      <Show when={props.shortened}>
        <span class="muted"> · long query shortened</span>
      </Show>
    </span>
  )
}
