import { useLocation, useNavigate } from '@solidjs/router'
import { createEffect, createMemo, createSignal, Match, on, onCleanup, Show, Switch } from 'solid-js'
import { EmptyState } from '../components/empty-state'
import { ErrorPanel } from '../components/error-panel'
import { ImagesConversation } from '../features/images-conversation/images-conversation'
import { createListSelection } from '../features/sessions/list-selection'
import { SessionFilters } from '../features/sessions/session-filters'
import { SessionList } from '../features/sessions/session-list'
import { createProjects, createSessionList, type SessionFilters as Filters } from '../features/sessions/sessions.data'
import { ListSkeleton } from '../components/skeleton'
import { useApi } from '../lib/api-context'
import { useSingleSearchParams } from '../lib/single-params'
import { formatBytes, formatCost, formatCount, plural, quoteTyped } from '../lib/format'
import { useListMemory } from '../lib/list-memory'
import { isValidId, sessionHref } from '../lib/links'
import { nextSort, SortSelect } from '../features/sessions/sort-header'
import { DEFAULT_SESSION_SORT, parseSessionSort, type SessionSort, type SortOrder } from '@loupe/domain'
import { useTitle } from '../lib/title'

type ListParams = { q?: string; project?: string; sub?: string; archived?: string; sel?: string; sort?: string; order?: string }

/** `/sessions?q=&project=&sub=1&archived=1&sort=size&order=desc&sel=<id>`: every filter and the sort live in the URL. */
export function SessionsRoute() {
  const api = useApi()
  const navigate = useNavigate()
  const location = useLocation()
  const memory = useListMemory()
  const [params, setParams] = useSingleSearchParams<ListParams>()
  const [typed, setTyped] = createSignal(params.q ?? '')
  const sort = createMemo(() => parseSessionSort(params.sort, params.order), undefined, { equals: (a, b) => a.sort === b.sort && a.order === b.order })
  const toggles = createMemo(() => ({ rootsOnly: params.sub !== '1', includeArchived: params.archived === '1' }), undefined, {
    equals: (a, b) => a.rootsOnly === b.rootsOnly && a.includeArchived === b.includeArchived,
  })
  const filters = createMemo<Filters>(() => ({
    search: params.q ?? '',
    ...(isValidId(params.project) ? { projectID: params.project } : {}),
    ...toggles(),
    ...sort(),
  }))
  const list = createSessionList(api, filters)
  useTitle(() => 'Sessions')
  const projects = createProjects(api, toggles)
  /** The default order (newest activity first) leaves the URL without sort parameters. */
  const setSort = (next: { sort: SessionSort; order: SortOrder }) => {
    const plain = next.sort === DEFAULT_SESSION_SORT.sort && next.order === DEFAULT_SESSION_SORT.order
    setParams({ sort: plain ? undefined : next.sort, order: plain ? undefined : next.order, sel: undefined }, { replace: true })
  }
  /** The chosen project's worktree, where its Images conversation lives (the global project has none). */
  const projectWorktree = () => {
    const worktree = projects.data()?.find((p) => p.id === filters().projectID)?.worktree
    return worktree && worktree !== '/' ? worktree : undefined
  }
  let searchInput: HTMLInputElement | undefined

  let timer: ReturnType<typeof setTimeout> | undefined
  const onSearch = (text: string) => {
    setTyped(text)
    clearTimeout(timer)
    timer = setTimeout(() => setParams({ q: text || undefined, sel: undefined }, { replace: true }), 120)
  }
  onCleanup(() => clearTimeout(timer))
  createEffect(on(() => params.q, (q) => { if ((q ?? '') !== typed()) setTyped(q ?? '') }, { defer: true }))

  /** "Back to list" returns to these filters with this session selected. */
  const rememberSelection = (index: number) => {
    const session = list.sessions()[index]
    if (!session) return undefined
    const query = new URLSearchParams(location.search)
    query.set('sel', session.id)
    memory.remember(`/sessions?${query}`)
    return session
  }
  const open = (index: number) => {
    const session = rememberSelection(index)
    if (session) navigate(sessionHref(session))
  }
  const { selected, setSelected } = createListSelection(list, { initial: () => params.sel, onOpen: open, onFocusFilter: () => searchInput?.focus() })

  const filtered = () => !!(params.q || params.project || params.archived)
  const clear = () => {
    setTyped('')
    setParams({ q: undefined, project: undefined, archived: undefined, sel: undefined }, { replace: true })
  }
  const summary = () => {
    const totals = list.totals()
    if (!totals) return ''
    const spent = totals.cost > 0 ? ` · ${formatCost(totals.cost)}` : ''
    return `${plural(totals.sessions, 'session')} · ${formatBytes(totals.bytes)} · ${formatCount(totals.tokens)} tokens${spent}`
  }
  const summaryTitle = () => {
    const totals = list.totals()
    return totals ? `${totals.bytes.toLocaleString('en-US')} bytes stored, ${totals.tokens.toLocaleString('en-US')} tokens, $${totals.cost.toFixed(4)}: every session in this view` : undefined
  }

  return (
    <div class="page sessions-page">
      <div class="page-head">
        <h1>Sessions</h1>
        <span class="page-summary" aria-live="polite" title={summaryTitle()}>{list.loading() === 'initial' && !list.totals() ? 'Loading…' : summary()}</span>
        <span class="size-legend" aria-hidden="true">
          <span class="swatch swatch-content" /> content <span class="swatch swatch-events" /> event log
        </span>
      </div>
      <SessionFilters
        ref={(el) => (searchInput = el)}
        search={typed()}
        projectID={filters().projectID}
        projects={projects.data() ?? []}
        showSubagents={params.sub === '1'}
        showArchived={params.archived === '1'}
        onSearch={onSearch}
        onProject={(project) => setParams({ project, sel: undefined }, { replace: true })}
        onShowSubagents={(show) => setParams({ sub: show ? '1' : undefined }, { replace: true })}
        onShowArchived={(show) => setParams({ archived: show ? '1' : undefined }, { replace: true })}
      />
      <SortSelect current={sort()} onChange={setSort} />
      <Show when={projectWorktree()}>
        {(worktree) => (
          <div class="project-images-convo">
            <ImagesConversation directory={worktree()} place="this project" onCreated={() => (list.refresh(), projects.refetch())} />
          </div>
        )}
      </Show>
      <Switch>
        <Match when={list.error() !== undefined && list.sessions().length === 0}>
          <ErrorPanel error={list.error()} onRetry={list.retry} />
        </Match>
        <Match when={list.loading() === 'initial' && list.sessions().length === 0}>
          <ListSkeleton rows={8} />
        </Match>
        <Match when={list.sessions().length === 0 && filtered()}>
          <EmptyState title="No sessions match" icon="∅" action={<button type="button" class="button" onClick={clear}>Clear filters</button>}>
            <p>Nothing{params.q ? <> with <strong>{quoteTyped(params.q)}</strong> in its title</> : ''} in this view. Titles are matched as you type; try fewer letters or another project.</p>
          </EmptyState>
        </Match>
        <Match when={list.sessions().length === 0}>
          <EmptyState title="No sessions yet" icon="◌">
            <p>OpenCode has not saved any conversation in this database. Start one in OpenCode, then reload this page.</p>
          </EmptyState>
        </Match>
        <Match when={true}>
          <SessionList
            sessions={list.sessions()}
            projects={projects.data() ?? []}
            selectedIndex={selected()}
            loading={list.loading()}
            error={list.error()}
            hasMore={list.hasMore()}
            now={Date.now()}
            sort={sort()}
            onSort={(column) => setSort(nextSort(sort(), column))}
            onSelect={setSelected}
            onOpen={rememberSelection}
            onLoadMore={list.loadMore}
            onRetry={list.retry}
          />
        </Match>
      </Switch>
    </div>
  )
}
