import { batch, createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js'

export type ListLoading = 'initial' | 'more' | false

export interface CursorListOptions<K, P, T> {
  /** What to list; a change starts again from the first page. `null`: list nothing. */
  key: Accessor<K | null>
  fetch: (key: K, cursor: string | undefined, signal: AbortSignal) => Promise<P>
  read: (page: P) => { items: T[]; cursor: string | null }
  /** After a page arrived during the first fill: ask for the next one at once. */
  fillMore?: (page: P, items: T[]) => boolean
  initialLoading?: ListLoading
}

export interface CursorList<T, P> {
  items: Accessor<T[]>
  /** The last page as the server answered it. */
  page: Accessor<P | undefined>
  loading: Accessor<ListLoading>
  error: Accessor<unknown>
  /** What is shown (items, page) answers an earlier key than the current one, whose first page is on its way. */
  stale: Accessor<boolean>
  hasMore: Accessor<boolean>
  /**
   * The item count at each "load more" since the first page: where the items a person asked for
   * begin, so a list that groups them can leave what was on screen as it was.
   */
  moreFrom: Accessor<number[]>
  loadMore: () => void
  retry: () => void
  refresh: () => void
  /** Stop the request in flight and any fill. */
  stop: () => void
}

/**
 * A list paged by an API cursor. A key change aborts the request in flight, so fast typing never
 * shows an older answer last; a failed first page leaves no earlier key's items on screen.
 */
export function createCursorList<K, P, T>(options: CursorListOptions<K, P, T>): CursorList<T, P> {
  const [items, setItems] = createSignal<T[]>([])
  const [page, setPage] = createSignal<P>()
  const [cursor, setCursor] = createSignal<string | null>(null)
  const [loading, setLoading] = createSignal<ListLoading>(options.initialLoading ?? false)
  const [error, setError] = createSignal<unknown>()
  const [moreFrom, setMoreFrom] = createSignal<number[]>([])
  // The key (as JSON) of what is shown; undefined while nothing is.
  const [shownFor, setShownFor] = createSignal<string>()
  let controller: AbortController | undefined
  let filling = false

  async function fetchPage(first: boolean) {
    controller?.abort()
    const key = options.key()
    if (key === null) {
      batch(() => {
        setItems([])
        setPage(undefined)
        setCursor(null)
        setMoreFrom([])
        setLoading(false)
        setError(undefined)
        setShownFor(undefined)
      })
      return
    }
    const mine = (controller = new AbortController())
    const after = first ? undefined : (cursor() ?? undefined)
    if (first) filling = true
    batch(() => {
      setLoading(first ? 'initial' : 'more')
      setError(undefined)
    })
    try {
      const answer = await options.fetch(key, after, mine.signal)
      if (mine.signal.aborted) return
      const next = options.read(answer)
      batch(() => {
        setItems((current) => (first ? next.items : [...current, ...next.items]))
        if (first) {
          setMoreFrom([])
          setShownFor(JSON.stringify(key))
        }
        setPage(() => answer)
        setCursor(next.cursor)
        setLoading(false)
      })
      if (filling && next.cursor && options.fillMore?.(answer, items())) void fetchPage(false)
      else filling = false
    } catch (caught) {
      if (mine.signal.aborted) return
      filling = false
      batch(() => {
        // No earlier key's items or totals beside the error.
        if (first) {
          setItems([])
          setPage(undefined)
          setShownFor(undefined)
        }
        setError(caught)
        setLoading(false)
      })
    }
  }

  createEffect(on(() => JSON.stringify(options.key()), () => void fetchPage(true)))
  onCleanup(() => controller?.abort())
  return {
    items,
    page,
    loading,
    error,
    stale: () => shownFor() !== undefined && shownFor() !== JSON.stringify(options.key()),
    hasMore: () => cursor() !== null,
    moreFrom,
    loadMore: () => {
      if (cursor() === null || loading() !== false) return
      const from = items().length
      if (moreFrom().at(-1) !== from) setMoreFrom((at) => [...at, from])
      void fetchPage(false)
    },
    retry: () => void fetchPage(items().length === 0),
    refresh: () => void fetchPage(true),
    stop: () => {
      filling = false
      controller?.abort()
      setLoading(false)
    },
  }
}
