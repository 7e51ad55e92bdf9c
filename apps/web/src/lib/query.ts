import { batch, createEffect, createSignal, on, onCleanup, type Accessor } from 'solid-js'

export interface Query<T> {
  data: Accessor<T | undefined>
  error: Accessor<unknown>
  loading: Accessor<boolean>
  refetch: () => void
}

/**
 * One API read keyed by `key` (compared as JSON). A new key aborts the old request and clears the
 * old answer; `refetch` keeps it on screen until the new one lands. Unlike createResource it never
 * suspends or throws into the tree, so pages decide how loading and errors look.
 */
export function createQuery<K, T>(key: Accessor<K | null>, fetcher: (key: K, signal: AbortSignal) => Promise<T>): Query<T> {
  const [data, setData] = createSignal<T>()
  const [error, setError] = createSignal<unknown>()
  const [loading, setLoading] = createSignal(false)
  let controller: AbortController | undefined

  async function run(current: K | null, keep: boolean) {
    controller?.abort()
    if (current === null) return
    const mine = (controller = new AbortController())
    batch(() => {
      setLoading(true)
      setError(undefined)
      if (!keep) setData(undefined)
    })
    try {
      const value = await fetcher(current, mine.signal)
      if (mine.signal.aborted) return
      batch(() => {
        setData(() => value)
        setLoading(false)
      })
    } catch (caught) {
      if (mine.signal.aborted) return
      batch(() => {
        setError(caught)
        setLoading(false)
      })
    }
  }

  createEffect(on(() => JSON.stringify(key() ?? null), () => void run(key(), false)))
  onCleanup(() => controller?.abort())
  return { data, error, loading, refetch: () => void run(key(), true) }
}
