import { A } from '@solidjs/router'
import { For, Match, Show, Switch } from 'solid-js'
import { EmptyState } from '../../components/empty-state'
import { ErrorPanel } from '../../components/error-panel'
import { SearchGlyph } from '../../components/search-field'
import { describeProblem } from '../../lib/errors'
import { quoteTyped } from '../../lib/format'
import { ListSkeleton } from '../../components/skeleton'
import { HitList } from './hit-list'
import type { MalformedScope } from './search-params'
import type { SearchState } from './search.data'
import { scannedPercent } from './search-summary'

export interface SearchResultsProps {
  search: SearchState
  /** The query as searched; empty when there is nothing to search for. */
  query: string
  searching: boolean
  /** The hits on screen answer an earlier query or filters; the current answer is on its way. */
  stale: boolean
  /** Why a typed query searches nothing (`-draft` alone): said in place of the welcome. */
  unsearchable: string | null
  /** Searches that opened a result before, newest first, offered again by the welcome. */
  recent: string[]
  recentHref: (query: string) => string
  onForgetRecent: () => void
  filtered: boolean
  /** A clean-up from these results removed what matched: an empty answer says so. */
  cleaned: boolean
  /** The search is narrowed to a session or a project: a link to one that is gone offers to widen it. */
  onWiden?: () => void
  /** The link's session or project is no id at all: said in place of any result. */
  malformedScope: MalformedScope | null
  view: 'sessions' | 'flat'
  selected: number
  onSelect: (index: number) => void
  onOpen: (index: number) => void
}

const SyntaxHelp = () => (
  <p class="syntax-help">
    {/* Each example stays on one line with what it does. */}
    <span><code>login bug</code> all words</span> · <span><code>"exact phrase"</code></span> · <span><code>-draft</code> exclude</span> ·{' '}
    <span><code>auth*</code> prefix</span> · <span><code>1137</code> finds <code>PR1137</code></span>
  </p>
)

/** A scope that holds nothing to search, with the way out. */
const NothingInThere = (props: { detail: string; onWiden: () => void }) => (
  <EmptyState title="Nothing to search in there" icon="∅" action={<button type="button" class="button" onClick={() => props.onWiden()}>Search everywhere</button>}>
    <p>{props.detail}</p>
  </EmptyState>
)

/** What stands below the filters: the start, an error, loading, no matches, or the hits and "Load more". */
export function SearchResults(props: SearchResultsProps) {
  const s = () => props.search
  return (
    <Switch>
      <Match when={props.malformedScope}>
        {(scope) => (
          <NothingInThere onWiden={() => props.onWiden?.()}
            detail={`${quoteTyped(scope().value, 40)} is not a ${scope().key} id. The link may have been cut short or changed.`} />
        )}
      </Match>
      <Match when={!props.searching && props.unsearchable}>
        {(why) => (
          <EmptyState title="Nothing to search for yet" icon={<SearchGlyph class="empty-state-glyph" />}>
            <p>{why()}</p>
            <SyntaxHelp />
          </EmptyState>
        )}
      </Match>
      <Match when={!props.searching}>
        <EmptyState title="Search everything OpenCode kept" icon={<SearchGlyph class="empty-state-glyph" />}>
          <p>Text, reasoning, tool calls and their output, across every session, including what came before a compaction.</p>
          <SyntaxHelp />
          <Show when={props.recent.length > 0}>
            <div class="recent-searches">
              <h3>Recent searches</h3>
              <ul>
                <For each={props.recent}>{(query) => <li><A href={props.recentHref(query)}>{query}</A></li>}</For>
              </ul>
              <button type="button" class="link-button" onClick={() => props.onForgetRecent()}>Forget these</button>
            </div>
          </Show>
        </EmptyState>
      </Match>
      <Match when={s().hits().length === 0 && describeProblem(s().error()).kind === 'not_found' && props.onWiden}>
        {(widen) => <NothingInThere detail={`${describeProblem(s().error()).detail} It may have been deleted in OpenCode, or the link is from another database.`} onWiden={widen()} />}
      </Match>
      <Match when={s().error() !== undefined && s().hits().length === 0}>
        <ErrorPanel error={s().error()} onRetry={s().retry} />
      </Match>
      <Match when={s().loading() === 'initial' && s().hits().length === 0}>
        <ListSkeleton rows={6} />
      </Match>
      <Match when={s().hits().length === 0 && s().answer()?.mode === 'scan' && s().hasMore() && s().answer()}>
        {(answer) => (
          <EmptyState title="Scanning history…" icon={<SearchGlyph class="empty-state-glyph" />}>
            <progress class="scan-progress" max={100} value={scannedPercent(answer())} aria-label="History scanned" />
            <p>No literal match in the first {scannedPercent(answer())}% yet. The search index is still being built; until it is ready, Loupe reads history row by row.</p>
          </EmptyState>
        )}
      </Match>
      <Match when={s().hits().length === 0 && s().loading() === false && props.cleaned}>
        <EmptyState title="Cleaned up" icon="✓">
          <p>The tool calls and reasoning that matched {quoteTyped(props.query)} are gone, and nothing else here matches it{props.filtered ? ' with these filters' : ''}.</p>
        </EmptyState>
      </Match>
      <Match when={s().hits().length === 0 && s().loading() === false}>
        <EmptyState title="No matches" icon="∅">
          <p>Nothing in this history matches {quoteTyped(props.query)}{props.filtered ? ' with these filters' : ''}.</p>
          <p class="muted">{props.filtered ? 'Try fewer words, a prefix (auth*), or reset the filters.' : 'Try fewer words, or a prefix (auth*).'}</p>
        </EmptyState>
      </Match>
      <Match when={true}>
        <Show when={props.stale}>
          <div class="search-busy" aria-hidden="true" />
        </Show>
        <HitList hits={s().hits()} query={props.query} view={props.view} selected={props.selected} now={Date.now()}
          onSelect={props.onSelect} onOpen={props.onOpen} partial={s().hasMore()} moreFrom={s().moreFrom()} stale={props.stale} />
        <Show when={s().hasMore()}>
          {/* aria-disabled, not disabled: a disabled button drops the keyboard focus to the page. */}
          <button type="button" class="load-more" aria-disabled={s().loading() !== false} onClick={() => s().loadMore()}>
            {s().loading() === 'more' ? 'Loading…' : s().answer()?.mode === 'scan' ? 'Keep scanning' : 'Load more'}
          </button>
        </Show>
      </Match>
    </Switch>
  )
}
