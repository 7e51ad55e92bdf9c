import { A, useNavigate, useParams, useSearchParams } from '@solidjs/router'
import { createEffect, createMemo, For, Match, Switch } from 'solid-js'
import { EmptyState } from '../components/empty-state'
import { ErrorPanel } from '../components/error-panel'
import { BytesTab } from '../features/bytes/bytes-tab'
import { GalleryTab } from '../features/gallery/gallery-tab'
import { ImagesConversationButtons } from '../features/images-conversation/images-conversation'
import { SessionHeader } from '../features/sessions/session-header'
import { createSessionDetail } from '../features/sessions/sessions.data'
import { PrunableTranscript } from '../features/pruning/prunable-transcript'
import type { TranscriptTarget } from '../features/transcript/hit-reveal'
import { createPrunedRefresh } from '../features/pruning/pruned-refresh'
import { useStorageInfo } from '../features/storage/storage.data'
import { useApi } from '../lib/api-context'
import { describeProblem } from '../lib/errors'
import { useKeys } from '../lib/keys'
import { isStorage, isValidId, sessionHref, type SessionTab } from '../lib/links'
import { useListMemory } from '../lib/list-memory'
import { useSearchMemory } from '../lib/search-memory'
import { useTitle } from '../lib/title'

/** Tabs of a session; Gallery joins here as one more entry. */
const TABS: { id: SessionTab; label: string; key: string }[] = [
  { id: 'transcript', label: 'Transcript', key: 't' },
  { id: 'bytes', label: 'Bytes', key: 'b' },
  { id: 'gallery', label: 'Gallery', key: 'i' },
]

type SessionSearch = { storage?: string; m?: string; part?: string; hl?: string; img?: string }

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value : undefined)

/** The transcript's target from the URL: strings only (a repeated parameter arrives as a list), `hl` only with a part. */
export function targetOf(search: Partial<Record<keyof SessionSearch, unknown>>): TranscriptTarget {
  const m = isValidId(search.m) ? search.m : undefined
  const part = m ? text(search.part) : undefined
  const hl = part ? text(search.hl) : undefined
  return { ...(m ? { m } : {}), ...(part ? { part } : {}), ...(hl ? { hl } : {}) }
}

/** A title hit's search: `hl` without a part marks the session's title, not a part. */
export const titleQueryOf = (search: Partial<Record<keyof SessionSearch, unknown>>): string | undefined =>
  targetOf(search).part ? undefined : text(search.hl)

/** `/sessions/:id[/:tab]?storage=&m=&part=&hl=`. */
export function SessionRoute() {
  const api = useApi()
  const navigate = useNavigate()
  const listHref = useListMemory().href
  const searches = useSearchMemory()
  const params = useParams<{ id: string; tab?: string }>()
  const [search, setSearch] = useSearchParams<SessionSearch>()
  const ref = createMemo(() => ({ sessionID: params.id, ...(isStorage(search.storage) ? { storage: search.storage } : {}) }))
  const tab = (): SessionTab | undefined => (params.tab === undefined ? 'transcript' : TABS.find((t) => t.id === params.tab)?.id)
  const storageInfo = useStorageInfo()
  const detail = createSessionDetail(api, () => (isValidId(params.id) ? ref() : null))
  // The header's sizes come from sessions.get: re-read it once a prune of this session commits (on
  // any tab of the page, in this browser tab or another), keeping the old figures until it lands.
  const headerPruned = createPrunedRefresh(api, () => {
    const session = detail.data()?.session
    return session ? { sessionID: session.id, storage: session.storage } : undefined
  }, detail.refetch)
  const link = (id: SessionTab) => sessionHref({ id: params.id, storage: detail.data()?.session.storage ?? (isStorage(search.storage) ? search.storage : 'v1') }, { tab: id })

  createEffect(() => {
    const storage = detail.data()?.session.storage
    if (storage && search.storage !== storage) setSearch({ storage }, { replace: true })
  })

  const session = () => detail.data()?.session
  const searchHere = () => {
    const s = session()
    // What brought the person here (a search's words) is where a search in the session starts.
    const words = text(search.hl)
    return s ? `/search?${new URLSearchParams({ ...(words ? { q: words } : {}), session: s.id, storage: s.storage })}` : '/search'
  }
  // Opened from search results, the session goes back to them; else to the session list.
  const leave = () => searches.backFrom(params.id) || navigate(listHref())
  useKeys((event) => {
    const target = TABS.find((t) => t.key === event.key)
    if (target) navigate(link(target.id))
    else if (event.key === 'f' && session()) navigate(searchHere())
    else if (event.key === 'Escape' || event.key === 'Backspace') leave()
    else return
    event.preventDefault()
  })

  const notFound = () => !isValidId(params.id) || tab() === undefined || (detail.error() !== undefined && describeProblem(detail.error()).kind === 'not_found')
  useTitle(() => detail.data()?.session.title || (notFound() ? 'Session not found' : undefined))
  return (
    <div class="page session-page">
      <Switch>
        <Match when={notFound()}>
          <EmptyState title="Session not found" icon="?" action={<A class="button" href={listHref()}>Back to sessions</A>}>
            <p>There is no session <code>{params.id}</code> in this database. It may have been deleted in OpenCode, or the link is from another machine.</p>
          </EmptyState>
        </Match>
        <Match when={detail.error()}>
          <ErrorPanel error={detail.error()} onRetry={detail.refetch} />
        </Match>
        <Match when={detail.data()}>
          {(data) => (
            <>
              <SessionHeader detail={data()} listHref={listHref()} highlight={titleQueryOf(search)} />
              <nav class="tabs" aria-label="Session views">
                <For each={TABS}>
                  {(t) => (
                    <A href={link(t.id)} class="tab" classList={{ active: tab() === t.id }} aria-current={tab() === t.id ? 'page' : undefined}>
                      {t.label} <kbd>{t.key}</kbd>
                    </A>
                  )}
                </For>
                <A href={searchHere()} class="tab tab-search" title="Search this session's text, reasoning and tool calls (f)">
                  Search in session <kbd>f</kbd>
                </A>
              </nav>
              <Switch>
                <Match when={tab() === 'gallery'}>
                  <GalleryTab
                    session={{ sessionID: data().session.id, storage: data().session.storage }}
                    toolbar={<ImagesConversationButtons directory={data().session.directory} place="this directory" />}
                  />
                </Match>
                <Match when={tab() === 'bytes'}>
                  <BytesTab session={ref()} />
                </Match>
                <Match when={tab() === 'transcript'}>
                  <PrunableTranscript
                    session={{ sessionID: data().session.id, storage: data().session.storage }}
                    writable={storageInfo.data()?.supported.write ?? false}
                    target={targetOf(search)}
                    revertMessageID={typeof data().session.revert?.messageID === 'string' ? (data().session.revert?.messageID as string) : undefined}
                    onPruned={headerPruned}
                    // A part's link and its search go once scrolled away; a title hit's search stays with the title.
                    onPosition={(m) => setSearch({ m, part: undefined, ...(targetOf(search).part ? { hl: undefined } : {}) }, { replace: true })}
                  />
                </Match>
              </Switch>
            </>
          )}
        </Match>
      </Switch>
    </div>
  )
}
