import type { SessionSort, SortOrder } from '@loupe/domain'
import { createMemo, For, Show } from 'solid-js'
import { ErrorPanel } from '../../components/error-panel'
import { observeVisible } from '../../lib/visible'
import type { Project, SessionSummary } from './sessions.data'
import { SessionRow, totalBytes } from './session-row'
import { SortHeader } from './sort-header'

export interface SessionListProps {
  sessions: SessionSummary[]
  projects: Project[]
  selectedIndex: number
  loading: 'initial' | 'more' | false
  error: unknown
  hasMore: boolean
  now: number
  sort: { sort: SessionSort; order: SortOrder }
  onSort: (sort: SessionSort) => void
  onSelect: (index: number) => void
  onOpen: (index: number) => void
  onLoadMore: () => void
  onRetry: () => void
}

/** The session table, sorted by a click (or Enter) on a column header; paging continues when the last rows scroll into view. */
export function SessionList(props: SessionListProps) {
  const names = createMemo(() => new Map(props.projects.map((p) => [p.id, p.name])))
  const maxBytes = createMemo(() => props.sessions.reduce((max, s) => Math.max(max, totalBytes(s)), 0))
  return (
    <div class="session-table" role="table" aria-label="Sessions" aria-busy={props.loading !== false} data-sort={props.sort.sort}>
      <div class="session-head" role="row">
        <span role="columnheader" class="col-title">Title</span>
        <span role="columnheader" class="col-project">Project</span>
        <SortHeader sort="messages" class="col-messages num" current={props.sort} onSort={props.onSort}>Messages</SortHeader>
        <SortHeader sort="tokens" class="col-tokens num" current={props.sort} onSort={props.onSort}>Tokens</SortHeader>
        <SortHeader sort="cost" class="col-cost num" current={props.sort} onSort={props.onSort}>Cost</SortHeader>
        <SortHeader sort="size" class="col-size num" current={props.sort} onSort={props.onSort}>Size</SortHeader>
        <SortHeader sort="eventBytes" class="col-events num" current={props.sort} onSort={props.onSort}>Event log</SortHeader>
        <SortHeader sort="updated" class="col-updated" current={props.sort} onSort={props.onSort}>Updated</SortHeader>
      </div>
      <div role="rowgroup" class="session-rows" classList={{ stale: props.loading === 'initial' && props.sessions.length > 0 }}>
        <For each={props.sessions}>
          {(session, index) => (
            <SessionRow
              session={session}
              projectName={names().get(session.projectID)}
              maxBytes={maxBytes()}
              selected={index() === props.selectedIndex}
              now={props.now}
              onSelect={() => props.onSelect(index())}
              onOpen={() => props.onOpen(index())}
            />
          )}
        </For>
      </div>
      <Show when={props.error !== undefined && props.sessions.length > 0}>
        <ErrorPanel error={props.error} onRetry={props.onRetry} compact />
      </Show>
      <Show when={props.hasMore && !props.error}>
        <button type="button" class="load-more" ref={(el) => observeVisible(el, () => props.onLoadMore())} disabled={props.loading !== false} onClick={() => props.onLoadMore()}>
          {props.loading === 'more' ? 'Loading…' : 'Load more sessions'}
        </button>
      </Show>
    </div>
  )
}
