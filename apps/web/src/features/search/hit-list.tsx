import { A } from '@solidjs/router'
import { For, Show } from 'solid-js'
import { RelativeTime } from '../../components/relative-time'
import { plural, shortDirectory } from '../../lib/format'
import { sessionHref } from '../../lib/links'
import { groupBySession, hitHref, KIND_LABELS } from './hit-model'
import type { SearchHit } from './search.data'
import { Snippet } from './snippet'

export interface HitListProps {
  hits: SearchHit[]
  /** The query the hits answer: an opened hit marks its matches. */
  query?: string
  view: 'sessions' | 'flat'
  /** Index in `hits` of the keyboard selection. */
  selected: number
  now: number
  onSelect: (index: number) => void
  /** More results can be loaded: a group's count is of those loaded so far. */
  partial?: boolean
  /** Where each "load more" began (`CursorList.moreFrom`): later hits group below earlier ones. */
  moreFrom?: number[]
  /** A hit is being opened (clicked): the page remembers its place first. */
  onOpen?: (index: number) => void
  /** The hits answer an earlier query or filters than the current ones, whose answer is on its way. */
  stale?: boolean
}

/** Kinds whose text is Markdown, shown rendered in the transcript. */
const PROSE = new Set(['text', 'reasoning', 'user'])

type RowProps = { hit: SearchHit; query?: string; index: number; selected: boolean; showSession: boolean; now: number; onSelect: (i: number) => void; onOpen?: (i: number) => void }

/**
 * The pointer selects a row only when it really moves: rows scrolling under a resting pointer (arrow
 * keys, Back restoring a place, more results loading) get mouse events too, with no movement, and
 * would take the keyboard's selection away.
 */
const pointerMoved = (event: MouseEvent) => event.movementX !== 0 || event.movementY !== 0

function HitRow(props: RowProps) {
  const untitled = () => props.hit.sessionTitle || 'Untitled session'
  return (
    <A
      href={hitHref(props.hit, props.query)}
      class={`hit hit-is-${props.hit.kind}`}
      classList={{ selected: props.selected }}
      data-index={props.index}
      aria-current={props.selected ? 'true' : undefined}
      onMouseMove={(event) => {
        if (!props.selected && pointerMoved(event)) props.onSelect(props.index)
      }}
      onFocus={() => props.onSelect(props.index)}
      // On the element itself, not delegated: it must run before the router's document listener navigates.
      on:click={() => props.onOpen?.(props.index)}
    >
      <span class={`hit-kind kind-${props.hit.kind}`}>
        {KIND_LABELS[props.hit.kind]}
        <Show when={props.hit.tool}>{(tool) => <span class="hit-tool">{tool()}</span>}</Show>
      </span>
      <span class="hit-body">
        <Show when={props.showSession && props.hit.kind !== 'title'}>
          <span class="hit-session">{untitled()}</span>
        </Show>
        <Snippet segments={props.hit.snippet} class="hit-snippet" prose={PROSE.has(props.hit.kind)} />
      </span>
      <RelativeTime at={props.hit.time} now={props.now} class="hit-time" />
    </A>
  )
}

const matchCount = (n: number, continued: boolean) => (continued ? plural(n, 'more match', 'more matches') : plural(n, 'match', 'matches'))

/** Search results, flat in rank order or grouped by session (sessions in order of their best hit). */
export function HitList(props: HitListProps) {
  return (
    <Show
      when={props.view === 'sessions'}
      fallback={
        <div class="hit-list" role="list" aria-busy={props.stale || undefined}>
          <For each={props.hits}>
            {(hit, i) => <HitRow hit={hit} query={props.query} index={i()} selected={props.selected === i()} showSession now={props.now} onSelect={props.onSelect} onOpen={props.onOpen} />}
          </For>
        </div>
      }
    >
      <div class="hit-groups" aria-busy={props.stale || undefined}>
        <For each={groupBySession(props.hits, props.moreFrom)}>
          {(group) => (
            <section class="hit-group" classList={{ 'hit-group-continued': group.continued }} aria-label={`${group.title || 'Untitled session'}${group.continued ? ', continued' : ''}`}>
              <header class="hit-group-head">
                <A href={sessionHref({ id: group.sessionID, storage: group.storage })} class="hit-group-title">
                  {group.title || 'Untitled session'}
                </A>
                <Show when={group.storage === 'v2'}>
                  <span class="chip chip-accent">2.x</span>
                </Show>
                <Show when={group.directory}>
                  <span class="hit-group-dir" title={group.directory}><bdi>{shortDirectory(group.directory)}</bdi></span>
                </Show>
                <span class="muted">{matchCount(group.hits.length, group.continued)}{props.partial ? ' so far' : ''}</span>
              </header>
              <div role="list">
                <For each={group.hits}>
                  {(entry) => <HitRow hit={entry.hit} query={props.query} index={entry.index} selected={props.selected === entry.index} showSession={false} now={props.now} onSelect={props.onSelect} onOpen={props.onOpen} />}
                </For>
              </div>
            </section>
          )}
        </For>
      </div>
    </Show>
  )
}
