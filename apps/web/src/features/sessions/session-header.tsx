import { A } from '@solidjs/router'
import { createEffect, For, onCleanup, Show } from 'solid-js'
import { RelativeTime } from '../../components/relative-time'
import { formatBytes, formatCost, formatCount, plural, shortDirectory } from '../../lib/format'
import { sessionHref } from '../../lib/links'
import { clearMarks, markMatches, TITLE_MARKS } from '../../lib/search-marks'
import { totalBytes } from './session-row'
import type { SessionDetail } from './sessions.data'

export interface SessionHeaderProps {
  detail: SessionDetail
  listHref: string
  /** The search a title hit came from (`&hl=` without a part): its matches are marked in the title. */
  highlight?: string
}

const titleOf = (s: { title: string }) => s.title.trim() || 'Untitled session'

/** Title, where it came from, what it holds; plus banners for a staged revert or work in progress. */
export function SessionHeader(props: SessionHeaderProps) {
  const s = () => props.detail.session
  const tokens = () => s().tokens.input + s().tokens.output + s().tokens.reasoning + s().tokens.cacheRead + s().tokens.cacheWrite
  const revert = () => (typeof s().revert?.messageID === 'string' ? (s().revert?.messageID as string) : undefined)
  let title!: HTMLHeadingElement
  createEffect(() => {
    const query = props.highlight
    // Read so the marks follow a new title (a rename in OpenCode, a refetch after a prune).
    titleOf(s())
    if (query) markMatches(title, query, TITLE_MARKS)
    else clearMarks(TITLE_MARKS)
  })
  onCleanup(() => clearMarks(TITLE_MARKS))
  return (
    <header class="session-header">
      <nav class="breadcrumbs" aria-label="Breadcrumb">
        <A href={props.listHref}>Sessions</A>
        <Show when={props.detail.parent}>
          {(parent) => (
            <>
              <span aria-hidden="true">/</span>
              <A href={sessionHref(parent())}>{titleOf(parent())}</A>
            </>
          )}
        </Show>
      </nav>
      <h1 class="session-name" ref={title}>{titleOf(s())}</h1>
      <div class="session-meta">
        <span title={s().directory}>{shortDirectory(s().directory)}</span>
        <span>{plural(s().stats.messages, 'message')}</span>
        <span class="session-bytes" title={`${totalBytes(s()).toLocaleString('en-US')} bytes stored: content plus event log`}>{formatBytes(totalBytes(s()))}</span>
        <Show when={tokens() > 0}>
          <span>{formatCount(tokens())} tokens</span>
        </Show>
        <Show when={s().cost > 0}>
          <span>{formatCost(s().cost)}</span>
        </Show>
        <span>updated <RelativeTime at={s().timeUpdated} /></span>
        <span
          class="chip chip-muted"
          tabIndex={0}
          title={
            s().storage === 'v2'
              ? `OpenCode 2.x storage (tables session_v2, session_message); session written by OpenCode ${s().version}`
              : `OpenCode 1.x storage (tables session, message, part); session written by OpenCode ${s().version}`
          }
        >
          {s().storage === 'v2' ? '2.x' : '1.x'}
        </span>
      </div>
      <Show when={props.detail.children.length > 0}>
        <div class="subagents">
          <span class="muted">Subagents</span>
          <For each={props.detail.children}>{(child) => <A class="chip chip-link" href={sessionHref(child)}>{titleOf(child)}</A>}</For>
        </div>
      </Show>
      <Show when={revert()}>
        <div class="banner banner-warn" role="note">
          <strong>A revert is staged.</strong> OpenCode hides the messages from the marked one onward until the revert is undone or
          committed. They are shown here, marked “reverted”.
        </div>
      </Show>
      <Show when={s().timeCompacting !== null || s().timeSuspended !== null}>
        <div class="banner banner-info" role="note">OpenCode is working on this session right now; what you see may change.</div>
      </Show>
    </header>
  )
}
