import { A } from '@solidjs/router'
import { Show } from 'solid-js'
import { RelativeTime } from '../../components/relative-time'
import { formatBytes, formatCost, formatCount, plural } from '../../lib/format'
import { sessionHref } from '../../lib/links'
import type { SessionSummary } from './sessions.data'

export interface SessionRowProps {
  session: SessionSummary
  projectName: string | undefined
  /** Largest total in the list, for the size bar's scale. */
  maxBytes: number
  selected: boolean
  now: number
  onSelect: () => void
  /** Called as the link is followed (click or Enter). */
  onOpen: () => void
}

export const totalBytes = (s: SessionSummary) => s.stats.bytes.messages + s.stats.bytes.parts + s.stats.bytes.events
/** Every token the session's steps reported, cache reads and writes included (the session header's figure). */
export const totalTokens = (s: SessionSummary) => s.tokens.input + s.tokens.output + s.tokens.reasoning + s.tokens.cacheRead + s.tokens.cacheWrite

/** One session: a real link (middle-click and copy work), selected by keyboard or pointer. */
export function SessionRow(props: SessionRowProps) {
  const total = () => totalBytes(props.session)
  const share = (bytes: number) => `${props.maxBytes > 0 ? (bytes / props.maxBytes) * 100 : 0}%`
  const title = () => props.session.title.trim() || 'Untitled session'
  return (
    <A
      href={sessionHref(props.session)}
      class="session-row"
      classList={{ selected: props.selected, archived: props.session.timeArchived !== null }}
      role="row"
      aria-selected={props.selected}
      data-session-id={props.session.id}
      onMouseEnter={() => props.onSelect()}
      onFocus={() => props.onSelect()}
      onClick={() => props.onOpen()}
    >
      <span class="session-title col-title" role="cell">
        <span class="session-title-text">{title()}</span>
        <Show when={props.session.parentID}>
          <span class="chip chip-muted" title="A subagent session started by another session">subagent</span>
        </Show>
        <Show when={props.session.storage === 'v2'}>
          <span class="chip chip-accent" title="Stored by OpenCode 2.x">2.x</span>
        </Show>
        <Show when={props.session.timeArchived !== null}>
          <span class="chip chip-muted">archived</span>
        </Show>
      </span>
      <span class="session-project col-project" role="cell" title={props.session.directory}>{props.projectName ?? props.session.directory}</span>
      <span class="session-count col-messages num" role="cell" title={plural(props.session.stats.messages, 'message')}>
        {props.session.stats.messages.toLocaleString()}
      </span>
      <span class="session-count col-tokens num" role="cell" title={`${totalTokens(props.session).toLocaleString('en-US')} tokens`}>
        {formatCount(totalTokens(props.session))}
      </span>
      <span class="session-count col-cost num" role="cell" title={`$${props.session.cost}`}>
        {formatCost(props.session.cost)}
      </span>
      <span class="session-size col-size" role="cell" title={`${formatBytes(props.session.stats.bytes.parts + props.session.stats.bytes.messages)} content, ${formatBytes(props.session.stats.bytes.events)} event log`}>
        <span class="size-bar" aria-hidden="true">
          <span class="size-bar-content" style={{ width: share(props.session.stats.bytes.parts + props.session.stats.bytes.messages) }} />
          <span class="size-bar-events" style={{ width: share(props.session.stats.bytes.events) }} />
        </span>
        <span class="num">{formatBytes(total())}</span>
      </span>
      <span class="session-count col-events num" role="cell" title={`${props.session.stats.bytes.events.toLocaleString('en-US')} bytes of event log`}>
        {formatBytes(props.session.stats.bytes.events)}
      </span>
      <span class="session-updated col-updated" role="cell">
        <RelativeTime at={props.session.timeUpdated} now={props.now} />
      </span>
    </A>
  )
}
