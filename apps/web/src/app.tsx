import { MemoryRouter, Navigate, Route, Router, useLocation, useNavigate, type MemoryHistory, type RouteSectionProps } from '@solidjs/router'
import { createSignal, lazy, Match, onCleanup, Show, Suspense, Switch } from 'solid-js'
import { AppHeader } from './components/app-header'
import { AuthRequired } from './components/auth-required'
import { DemoBanner } from './components/demo-banner'
import { ShortcutSheet } from './components/shortcut-sheet'
import { createStorageInfo, StorageInfoContext } from './features/storage/storage.data'
import { useApi } from './lib/api-context'
import { describeProblem } from './lib/errors'
import { isTypingTarget, useKeys } from './lib/keys'
import { ListMemoryProvider } from './lib/list-memory'
import { createSearchMemory, SearchMemoryContext, withQuery, type SearchMemory } from './lib/search-memory'
import { NotFound } from './routes/not-found'

const SessionsRoute = lazy(() => import('./routes/sessions').then((m) => ({ default: m.SessionsRoute })))
const SessionRoute = lazy(() => import('./routes/session').then((m) => ({ default: m.SessionRoute })))
const OverviewRoute = lazy(() => import('./routes/overview').then((m) => ({ default: m.OverviewRoute })))
const StorageRoute = lazy(() => import('./routes/storage').then((m) => ({ default: m.StorageRoute })))
const SearchRoute = lazy(() => import('./routes/search').then((m) => ({ default: m.SearchRoute })))

/** How long after `/` (or the last key caught) keys still go into the search the page will show. */
const TYPEAHEAD_MS = 1000

/** `g` then a letter within a second jumps between places; `?` opens the sheet; `/` reopens the last search. */
function useGlobalKeys(openHelp: () => void, searches: SearchMemory) {
  const navigate = useNavigate()
  const location = useLocation()
  let pendingG = 0
  // Keys typed right after `/`, before the search page (a lazily loaded chunk) has focused its box,
  // would be lost: they go into the query until the box takes over (it then receives them itself).
  // They replace the last search's words and keep its filters, as typing over its selected query would.
  let typeahead: { text: string; until: number; base: string } | null = null
  const typeInto = (text: string) => {
    const base = typeahead?.base ?? '/search'
    typeahead = { text, until: Date.now() + TYPEAHEAD_MS, base }
    searches.noteReopen(undefined)
    navigate(withQuery(base, text), { replace: true })
  }
  const catching = () => typeahead !== null && Date.now() < typeahead.until
  useKeys((event) => {
    if (catching() && (event.key.length === 1 || event.key === 'Backspace')) {
      event.preventDefault()
      typeInto(event.key === 'Backspace' ? typeahead!.text.slice(0, -1) : typeahead!.text + event.key)
      return
    }
    typeahead = null
    if (event.key === '?') {
      event.preventDefault()
      openHelp()
      return
    }
    if (event.key === '/' && location.pathname !== '/search') {
      event.preventDefault()
      const base = searches.href()
      typeahead = { text: '', until: Date.now() + TYPEAHEAD_MS, base }
      searches.noteReopen(base)
      navigate(base)
      return
    }
    if (event.key === 'g') {
      pendingG = Date.now()
      return
    }
    if (Date.now() - pendingG < 1000) {
      pendingG = 0
      if (event.key === 's') navigate('/sessions')
      else if (event.key === 'o') navigate('/overview')
      else if (event.key === 'd') navigate('/storage')
      else return
      event.preventDefault()
    }
  })
  // Text pasted in the same moment goes the same way (a field that has the focus takes its own paste).
  const onPaste = (event: ClipboardEvent) => {
    const pasted = event.clipboardData?.getData('text/plain')
    if (!catching() || !pasted || isTypingTarget(event.target)) return
    event.preventDefault()
    typeInto(typeahead!.text + pasted.replace(/\s+/g, ' '))
  }
  document.addEventListener('paste', onPaste)
  onCleanup(() => document.removeEventListener('paste', onPaste))
}

function Shell(props: RouteSectionProps) {
  const storage = createStorageInfo(useApi())
  const [help, setHelp] = createSignal(false)
  const searches = createSearchMemory()
  useGlobalKeys(() => setHelp(true), searches)
  const unauthorized = () => storage.error() !== undefined && describeProblem(storage.error()).kind === 'unauthorized'
  return (
    <StorageInfoContext.Provider value={storage}>
      <SearchMemoryContext.Provider value={searches}>
      <ListMemoryProvider>
      <div class="app">
        <AppHeader info={storage.data()} searchHref={searches.href()} onSearch={() => searches.noteReopen(searches.href())} onHelp={() => setHelp(true)} />
        <Show when={storage.data()?.demo}>
          <DemoBanner />
        </Show>
        <main class="app-main">
          <Switch fallback={<Suspense fallback={<div class="page-loading" aria-busy="true" />}>{props.children}</Suspense>}>
            <Match when={unauthorized()}>
              <AuthRequired />
            </Match>
          </Switch>
        </main>
        <Show when={help()}>
          <ShortcutSheet onClose={() => setHelp(false)} />
        </Show>
      </div>
      </ListMemoryProvider>
      </SearchMemoryContext.Provider>
    </StorageInfoContext.Provider>
  )
}

/** The overview is what a heavy user opens first (issue 23): usage over time, the biggest sessions, where the bytes are. */
function Home() {
  const location = useLocation()
  return <Navigate href={`/overview${location.search}`} />
}

function Routes() {
  return (
    <>
      <Route path="/" component={Home} />
      <Route path="/sessions" component={SessionsRoute} />
      <Route path="/sessions/:id/:tab?" component={SessionRoute} />
      <Route path="/overview" component={OverviewRoute} />
      <Route path="/storage" component={StorageRoute} />
      <Route path="/search" component={SearchRoute} />
      <Route path="*404" component={NotFound} />
    </>
  )
}

/** The whole app; tests pass a memory history, the browser uses the address bar. */
export function App(props: { history?: MemoryHistory }) {
  return (
    <Show when={props.history} fallback={<Router root={Shell}><Routes /></Router>}>
      {(history) => (
        <MemoryRouter root={Shell} history={history()}>
          <Routes />
        </MemoryRouter>
      )}
    </Show>
  )
}
