import { hasPositiveTerm, parseQuery, QUERY_LIMITS, searchHint } from '@loupe/domain'
import { useNavigate } from '@solidjs/router'
import { createEffect, createSignal, on, onMount, type Accessor } from 'solid-js'
import type { Api } from '../../lib/trpc'
import { useApi } from '../../lib/api-context'
import { listHasFocus, useKeys } from '../../lib/keys'
import { useSearchMemory } from '../../lib/search-memory'
import { useSingleSearchParams } from '../../lib/single-params'
import { createProjects, createSessionDetail } from '../sessions/sessions.data'
import { useStorageInfo } from '../storage/storage.data'
import { createCleanup } from './cleanup.data'
import { createHitCursor } from './hit-cursor'
import { hitHref } from './hit-model'
import { createQueryHistory } from './query-history'
import { createRecentSearches } from './recent-searches'
import { createSearchQuery, type SearchParams } from './search-params'
import { rememberPlace, restorePlace } from './search-place'
import { createIndexedTools, createIndexStatus, createSearch, type SearchInput } from './search.data'
import { createSubmit } from './submit-query'
import { createTypedQuery } from './typed-query'

/** Everything the search page shows and does, built once per page. */
export type SearchPageState = ReturnType<typeof createSearchPageState>

/** The answers behind the page: the search, the index, its tools, the clean-up, projects and storage. */
function createSearchSources(api: Api, input: Accessor<SearchInput | null>) {
  const search = createSearch(api, input)
  const status = createIndexStatus(api, () => search.refresh())
  return {
    search,
    status,
    tools: createIndexedTools(api, status),
    cleanup: createCleanup(api, input, () => search.refresh()),
    projects: createProjects(api),
    storage: useStorageInfo(),
  }
}

/** The search box: focused on arrival; reopened by `/` or the Search link, its last query is selected so typing replaces it. */
function createSearchBox() {
  let box: HTMLInputElement | undefined
  const searches = useSearchMemory()
  onMount(() => {
    box?.focus()
    // Else the query may already hold what was typed after `/` while this page loaded: go on after it.
    if (searches.takeReopened()) box?.select()
    else box?.setSelectionRange(box.value.length, box.value.length)
  })
  return { ref: (el: HTMLInputElement) => (box = el), element: () => box, focus: () => box?.focus() }
}

/** Arrows and j/k move through the results, Enter submits, `/` returns to the box. */
function useSearchKeys(box: ReturnType<typeof createSearchBox>, move: ReturnType<typeof createHitCursor>, submit: () => void) {
  useKeys((event) => {
    const inBox = event.target === box.element()
    if (event.key === 'ArrowDown' || (!inBox && event.key === 'j')) move(1, event.target)
    else if (event.key === 'ArrowUp' || (!inBox && event.key === 'k')) move(-1, event.target)
    // Enter belongs to the box and the results; a focused button or filter keeps its own.
    else if (event.key === 'Enter' && !event.isComposing && (inBox || listHasFocus(event.target, '.hit'))) submit()
    else if (!inBox && event.key === '/') box.focus()
    else return
    event.preventDefault()
  }, { field: box.element })
}

/** `/search?q=&kinds=&tool=&project=&session=&storage=&when=&view=`: every choice lives in the URL. */
export function createSearchPageState() {
  const api = useApi()
  const navigate = useNavigate()
  const [params, setParams] = useSingleSearchParams<SearchParams>()
  const [selected, setSelected] = createSignal(0)
  const recent = createRecentSearches()
  /** The query as searched (the box's text may be ahead of it while typing is debounced). */
  const query = createSearchQuery(params)
  // The scoped session, for its title: the chip names it before any hit does.
  const scoped = createSessionDetail(api, query.sessionScope)
  const sources = createSearchSources(api, query.input)
  const { search } = sources
  const failed = () => search.error() !== undefined
  const history = createQueryHistory(() => JSON.stringify(params), () => !!params.q)
  const box = createSearchBox()
  const typing = createTypedQuery({
    searched: () => params.q,
    search: (q) => setParams({ q }, { replace: history.replace() }),
    onEdit: () => enter.cancel(),
  })
  createEffect(on(() => query.input(), () => setSelected(0)))
  const move = createHitCursor({ hits: search.hits, moreFrom: search.moreFrom, view: query.view, selected, select: setSelected, loadMore: search.loadMore })
  /** Leave for a result: Back and `/` come back to this place, and the query joins the recent searches. */
  const leaveFor = (index: number) => {
    rememberPlace(index, search.hits().length)
    recent.remember(query.query())
  }
  restorePlace({
    key: () => JSON.stringify(query.input()), count: () => search.hits().length, answered: () => search.answer() !== undefined,
    loading: search.loading, failed, hasMore: search.hasMore, loadMore: search.loadMore, select: setSelected,
  })
  const open = () => {
    const hit = search.hits()[selected()]
    if (!hit) return
    leaveFor(selected())
    navigate(hitHref(hit, params.q))
  }
  const enter = createSubmit({
    typed: typing.typed, searched: () => params.q ?? '', selects: (text) => hasPositiveTerm(parseQuery(text)),
    search: typing.searchNow, loading: search.loading, failed, open,
  })
  useSearchKeys(box, move, enter.submit)
  // A filter is one deliberate choice: Back undoes it.
  const set = (patch: Partial<SearchParams>) => {
    enter.cancel()
    setParams(patch)
  }
  return { params, set, query, scoped, ...sources, failed, box, typing, selected, setSelected, recent, leaveFor, ...createPageFacts(params, query, sources, typing.typed, scoped) }
}

/** What the page says about itself: hints, the scope's name, whether a clean-up is on offer. */
function createPageFacts(
  params: SearchParams,
  query: ReturnType<typeof createSearchQuery>,
  { search, storage }: ReturnType<typeof createSearchSources>,
  typed: Accessor<string>,
  scoped: ReturnType<typeof createSessionDetail>,
) {
  // Only tool calls and reasoning are ever removed: a search of text, user messages or titles alone has none.
  const cleanableKinds = () => query.kinds().length === 0 || query.kinds().some((k) => k === 'reasoning' || k === 'tool')
  return {
    canClean: () => !!query.input() && search.answer()?.mode === 'index' && search.hits().length > 0 && cleanableKinds(),
    writable: () => storage.data()?.supported.write !== false,
    // The results on screen are not yet those of what the box holds: typed and not yet searched
    // (the typing pause), or searched and not yet answered. A clean-up now would plan the old ones.
    waiting: () => search.stale() || typed() !== (params.q ?? ''),
    hint: () => {
      if (search.loading() === 'initial' || search.error() !== undefined) return null
      return searchHint(query.query(), query.parsed(), { found: search.hits().length, mode: search.answer()?.mode ?? 'index' })
    },
    scopeLabel: () => {
      const title = scoped.data()?.session.title || search.hits().find((h) => h.sessionID === params.session)?.sessionTitle
      return title ? `In “${title}”` : 'In one session only'
    },
    shortened: () => query.query().length > QUERY_LIMITS.sentChars || !!search.answer()?.queryTruncated,
    filtered: () => query.kinds().length > 0 || !!params.tool || !!params.project || !!params.when,
    // The filters as the URL holds them, for links that keep them (recent searches).
    definedParams: () => Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '')),
  }
}
