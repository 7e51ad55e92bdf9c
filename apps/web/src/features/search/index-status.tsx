import { Show } from 'solid-js'
import { formatCount } from '../../lib/format'
import type { IndexStatus } from './search.data'

/** The index build as a progress bar, and an honest word about what the results below are. */
export function IndexStatusBar(props: { status: IndexStatus | undefined }) {
  const percent = () => {
    const s = props.status
    return s && s.totalParts > 0 ? Math.min(100, Math.round((s.indexedParts / s.totalParts) * 100)) : 0
  }
  return (
    <Show when={props.status && props.status.state !== 'ready' ? props.status : undefined}>
      {(status) => (
        <div class="banner banner-info index-status" role="status">
          <Show
            when={status().state === 'building'}
            fallback={<span>Full-text search is unavailable ({status().message ?? status().state}); results are literal matches in storage order.</span>}
          >
            <div class="index-status-text">
              <strong>Building the search index</strong>
              <span class="num">
                {formatCount(status().indexedParts)} / {formatCount(status().totalParts)} parts · {status().mbPerSecond.toFixed(1)} MB/s
              </span>
              <span class="muted">Until it is ready, results are literal matches in storage order, not ranked.</span>
            </div>
            <div class="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent()} aria-label="Index build">
              <div class="progress-fill" style={{ width: `${percent()}%` }} />
            </div>
          </Show>
        </div>
      )}
    </Show>
  )
}
