import { Show } from 'solid-js'
import { SearchField } from '../components/search-field'
import { CleanupButton } from '../features/search/cleanup-button'
import { CleanupDialog } from '../features/search/cleanup-dialog'
import { IndexStatusBar } from '../features/search/index-status'
import { ScopeChip } from '../features/search/scope-chip'
import { SearchFilters, isPeriod } from '../features/search/search-filters'
import { createSearchPageState, type SearchPageState } from '../features/search/search-page-state'
import { SearchResults } from '../features/search/search-results'
import { SearchSummary } from '../features/search/search-summary'
import { quoteTyped } from '../lib/format'
import { isValidId } from '../lib/links'
import { useTitle } from '../lib/title'

/** `/search?q=&kinds=&tool=&project=&session=&storage=&when=&view=`: every choice lives in the URL. */
export function SearchRoute() {
  const page = createSearchPageState()
  const { params, query } = page
  useTitle(() => (query.query() ? `Search: ${quoteTyped(query.query(), 60)}` : 'Search'))
  return (
    <div class="page search-page">
      <SearchHead page={page} />
      <CleanupDialog cleanup={page.cleanup} query={page.cleanup.planned()?.query ?? query.query()} capped={!!page.search.answer()?.truncated} />
      <SearchField
        class="search-main"
        label="Search all history"
        placeholder={isValidId(params.session) ? 'Search this session: words, "exact phrase", -exclude, prefix*' : 'Search all history: words, "exact phrase", -exclude, prefix*'}
        value={page.typing.typed()}
        ref={page.box.ref}
        onType={page.typing.type}
      />
      <PageFilters page={page} />
      <Show when={isValidId(params.session)}>
        <ScopeChip label={page.scopeLabel()} onClear={() => {
          page.set({ session: undefined, storage: undefined })
          // The chip goes away with its button: the box takes the focus, not the page (where Enter opens a result).
          page.box.focus()
        }} />
      </Show>
      <IndexStatusBar status={page.status()} />
      <Show when={query.input() && page.hint()}>
        <p class="muted search-notice" role="status">{page.hint()}</p>
      </Show>
      <PageResults page={page} />
    </div>
  )
}

/** The title, what the answer amounts to, and the clean-up it offers. */
function SearchHead(props: { page: SearchPageState }) {
  const page = props.page
  return (
    <div class="page-head">
      <h1>Search</h1>
      <SearchSummary
        answer={page.search.answer()}
        count={page.search.hits().length}
        loading={page.search.loading()}
        shortened={page.shortened()}
        stale={page.search.stale()}
      />
      <Show when={page.canClean()}>
        <CleanupButton writable={page.writable()} waiting={page.waiting()} onClick={() => void page.cleanup.open()} />
      </Show>
    </div>
  )
}

/** Kinds, tool, project, period and layout, each a URL parameter. */
function PageFilters(props: { page: SearchPageState }) {
  const page = props.page
  const { params } = page
  return (
    <SearchFilters
      kinds={page.query.kinds()}
      tool={params.tool}
      tools={page.tools.data()?.tools ?? null}
      // Any project in the link, well-formed or not, so the menu can say it is unknown rather than "All projects".
      projectID={params.project || undefined}
      projects={page.projects.data() ?? []}
      period={isPeriod(params.when) ? params.when : undefined}
      view={page.query.view()}
      onKinds={(k) => page.set({ kinds: k.length ? k.join(',') : undefined })}
      onTool={(tool) => page.set({ tool })}
      onProject={(project) => page.set({ project })}
      onPeriod={(when) => page.set({ when })}
      onView={(v) => page.set({ view: v === 'flat' ? 'flat' : undefined })}
    />
  )
}

/** The hits, or the empty state that fits: nothing typed, nothing found, a malformed scope. */
function PageResults(props: { page: SearchPageState }) {
  const page = props.page
  const { params, query } = page
  return (
    <SearchResults
      search={page.search}
      query={query.query()}
      searching={!!query.input()}
      malformedScope={query.malformedScope()}
      stale={page.search.stale()}
      unsearchable={query.input() ? null : page.hint()}
      filtered={page.filtered()}
      cleaned={page.cleanup.cleaned()}
      onWiden={params.session || params.project ? () => {
        page.set({ session: undefined, storage: undefined, project: undefined })
        page.box.focus()
      } : undefined}
      view={query.view()}
      selected={page.selected()}
      onSelect={page.setSelected}
      onOpen={page.leaveFor}
      recent={page.recent.list()}
      recentHref={(q) => `/search?${new URLSearchParams({ ...page.definedParams(), q })}`}
      onForgetRecent={() => {
        page.recent.forget()
        page.box.focus()
      }}
    />
  )
}
