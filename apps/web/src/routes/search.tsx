import { hasPositiveTerm, parseQuery, QUERY_LIMITS, searchHint } from '@loupe/domain'
import { useNavigate } from '@solidjs/router'
import { createEffect, createSignal, on, onCleanup, onMount, Show } from 'solid-js'
import { createCleanup } from '../features/search/cleanup.data'
import { CleanupDialog } from '../features/search/cleanup-dialog'
import { createHitCursor } from '../features/search/hit-cursor'
import { hitHref } from '../features/search/hit-model'
import { IndexStatusBar } from '../features/search/index-status'
import { SearchFilters, isPeriod } from '../features/search/search-filters'
import { createSearchQuery, type SearchParams } from '../features/search/search-params'
import { SearchField } from '../components/search-field'
import { SearchResults } from '../features/search/search-results'
import { SearchSummary } from '../features/search/search-summary'
import { createRecentSearches } from '../features/search/recent-searches'
import { rememberPlace, restorePlace } from '../features/search/search-place'
import { createSubmit } from '../features/search/submit-query'
import { createQueryHistory } from '../features/search/query-history'
import { createIndexedTools, createIndexStatus, createSearch } from '../features/search/search.data'
import { createProjects, createSessionDetail } from '../features/sessions/sessions.data'
import { useStorageInfo } from '../features/storage/storage.data'
import { useApi } from '../lib/api-context'
import { listHasFocus, useKeys } from '../lib/keys'
import { useSingleSearchParams } from '../lib/single-params'
import { isValidId } from '../lib/links'
import { useSearchMemory } from '../lib/search-memory'
import { quoteTyped } from '../lib/format'
import { useTitle } from '../lib/title'

/** `/search?q=&kinds=&tool=&project=&session=&storage=&when=&view=`: every choice lives in the URL. */
export function SearchRoute() {
  const api = useApi()
  const navigate = useNavigate()
  const [params, setParams] = useSingleSearchParams<SearchParams>()
  const [typed, setTyped] = createSignal(params.q ?? '')
  const [selected, setSelected] = createSignal(0)
  const recent = createRecentSearches()
  const projects = createProjects(api)
  /** The query as searched (the box's text may be ahead of it while typing is debounced). */
  const { query, parsed, sessionScope, malformedScope, kinds, view, input } = createSearchQuery(params)
  // The scoped session, for its title: the chip names it before any hit does.
  const scoped = createSessionDetail(api, sessionScope)
  let box: HTMLInputElement | undefined
  const search = createSearch(api, input)
  const failed = () => search.error() !== undefined
  const status = createIndexStatus(api, () => search.refresh())
  const tools = createIndexedTools(api, status)
  const cleanup = createCleanup(api, input, () => search.refresh())
  const storage = useStorageInfo()
  // Titles and user messages are never cleaned: with only those kinds chosen there is nothing to offer.
  // Only tool calls and reasoning are ever removed: a search of text, user messages or titles alone has none.
  const cleanableKinds = () => kinds().length === 0 || kinds().some((k) => k === 'reasoning' || k === 'tool')
  const canClean = () => !!input() && search.answer()?.mode === 'index' && search.hits().length > 0 && cleanableKinds()
  const hint = () => {
    if (search.loading() === 'initial' || failed()) return null
    return searchHint(query(), parsed(), { found: search.hits().length, mode: search.answer()?.mode ?? 'index' })
  }
  const scopeLabel = () => {
    const title = scoped.data()?.session.title || search.hits().find((h) => h.sessionID === params.session)?.sessionTitle
    return title ? `In “${title}”` : 'In one session only'
  }
  const filtered = () => kinds().length > 0 || !!params.tool || !!params.project || !!params.when
  const writable = () => storage.data()?.supported.write !== false
  // The results on screen are not yet those of what the box holds: typed and not yet searched
  // (the 160 ms pause), or searched and not yet answered. A clean-up now would plan the old ones.
  const waiting = () => search.stale() || typed() !== (params.q ?? '')
  const cleanupTitle = () => {
    if (!writable()) return 'Loupe does not write to this database (see Storage)'
    return waiting() ? 'Waiting for the results of this search' : 'Remove the tool calls and reasoning of the finished messages behind these results'
  }
  useTitle(() => (query() ? `Search: ${quoteTyped(query(), 60)}` : 'Search'))

  const history = createQueryHistory(() => JSON.stringify(params), () => !!params.q)
  let timer: ReturnType<typeof setTimeout> | undefined
  const onType = (text: string) => {
    setTyped(text)
    enter.cancel()
    clearTimeout(timer)
    timer = setTimeout(() => setParams({ q: text || undefined }, { replace: history.replace() }), 160)
  }
  onCleanup(() => clearTimeout(timer))
  createEffect(on(() => params.q, (q) => { if ((q ?? '') !== typed()) setTyped(q ?? '') }, { defer: true }))
  createEffect(on(() => input(), () => setSelected(0)))
  const searches = useSearchMemory()
  onMount(() => {
    box?.focus()
    // Reopened by `/` or the Search link, the last query is selected: typing replaces it. Else the
    // query may already hold what was typed after `/` while this page loaded: go on after it.
    if (searches.takeReopened()) box?.select()
    else box?.setSelectionRange(box.value.length, box.value.length)
  })

  const move = createHitCursor({
    hits: search.hits, moreFrom: search.moreFrom, view, selected, select: setSelected, loadMore: search.loadMore,
  })
  const open = () => {
    const hit = search.hits()[selected()]
    if (!hit) return
    rememberPlace(selected(), search.hits().length)
    recent.remember(query())
    navigate(hitHref(hit, params.q))
  }
  restorePlace({
    key: () => JSON.stringify(input()),
    count: () => search.hits().length,
    answered: () => search.answer() !== undefined,
    loading: search.loading,
    failed,
    hasMore: search.hasMore,
    loadMore: search.loadMore,
    select: setSelected,
  })
  const enter = createSubmit({
    typed,
    searched: () => params.q ?? '',
    selects: (text) => hasPositiveTerm(parseQuery(text)),
    search: (text) => {
      clearTimeout(timer)
      setParams({ q: text }, { replace: history.replace() })
    },
    loading: search.loading,
    failed,
    open,
  })
  useKeys((event) => {
    const inBox = event.target === box
    if (event.key === 'ArrowDown' || (!inBox && event.key === 'j')) move(1, event.target)
    else if (event.key === 'ArrowUp' || (!inBox && event.key === 'k')) move(-1, event.target)
    // Enter belongs to the box and the results; a focused button or filter keeps its own.
    else if (event.key === 'Enter' && !event.isComposing && (inBox || listHasFocus(event.target, '.hit'))) enter.submit()
    else if (!inBox && event.key === '/') box?.focus()
    else return
    event.preventDefault()
  }, { field: () => box })

  // The filters as the URL holds them, for links that keep them (recent searches).
  const definedParams = () => Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''))
  // A filter is one deliberate choice: Back undoes it.
  const set = (patch: Partial<SearchParams>) => {
    enter.cancel()
    setParams(patch)
  }
  return (
    <div class="page search-page">
      <div class="page-head">
        <h1>Search</h1>
        <SearchSummary
          answer={search.answer()}
          count={search.hits().length}
          loading={search.loading()}
          shortened={query().length > QUERY_LIMITS.sentChars || !!search.answer()?.queryTruncated}
          stale={search.stale()}
        />
        <Show when={canClean()}>
          <button
            type="button"
            class="button cleanup-button"
            // The results on screen may still be an earlier search's: clean up only once these are this one's.
            disabled={!writable() || waiting()}
            title={cleanupTitle()}
            onClick={() => void cleanup.open()}
          >
            Clean up matching…
          </button>
        </Show>
      </div>
      <CleanupDialog cleanup={cleanup} query={cleanup.planned()?.query ?? query()} capped={!!search.answer()?.truncated} />
      <SearchField
        class="search-main"
        label="Search all history"
        placeholder={isValidId(params.session) ? 'Search this session: words, "exact phrase", -exclude, prefix*' : 'Search all history: words, "exact phrase", -exclude, prefix*'}
        value={typed()}
        ref={(el) => (box = el)}
        onType={onType}
      />
      <SearchFilters
        kinds={kinds()}
        tool={params.tool}
        tools={tools.data()?.tools ?? null}
        // Any project in the link, well-formed or not, so the menu can say it is unknown rather than "All projects".
        projectID={params.project || undefined}
        projects={projects.data() ?? []}
        period={isPeriod(params.when) ? params.when : undefined}
        view={view()}
        onKinds={(k) => set({ kinds: k.length ? k.join(',') : undefined })}
        onTool={(tool) => set({ tool })}
        onProject={(project) => set({ project })}
        onPeriod={(when) => set({ when })}
        onView={(v) => set({ view: v === 'flat' ? 'flat' : undefined })}
      />
      <Show when={isValidId(params.session)}>
        <div class="scope-chip">
          <span>{scopeLabel()}</span>
          <button type="button" class="icon-button" aria-label="Search everywhere" onClick={() => {
            set({ session: undefined, storage: undefined })
            // The chip goes away with its button: the box takes the focus, not the page (where Enter opens a result).
            box?.focus()
          }}>×</button>
        </div>
      </Show>
      <IndexStatusBar status={status()} />
      <Show when={input() && hint()}>
        <p class="muted search-notice" role="status">{hint()}</p>
      </Show>
      <SearchResults
        search={search}
        query={query()}
        searching={!!input()}
        malformedScope={malformedScope()}
        stale={search.stale()}
        unsearchable={input() ? null : hint()}
        filtered={filtered()}
        cleaned={cleanup.cleaned()}
        onWiden={params.session || params.project ? () => {
          set({ session: undefined, storage: undefined, project: undefined })
          box?.focus()
        } : undefined}
        view={view()}
        selected={selected()}
        onSelect={setSelected}
        onOpen={(i) => {
          rememberPlace(i, search.hits().length)
          recent.remember(query())
        }}
        recent={recent.list()}
        recentHref={(q) => `/search?${new URLSearchParams({ ...definedParams(), q })}`}
        onForgetRecent={() => {
          recent.forget()
          box?.focus()
        }}
      />
    </div>
  )
}
