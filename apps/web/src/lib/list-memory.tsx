import { useLocation } from '@solidjs/router'
import { createContext, createEffect, createSignal, useContext, type Accessor, type ParentProps } from 'solid-js'

const ListMemoryContext = createContext<Accessor<string>>()

/** Remembers the last session-list URL (filters included) so "back to list" restores it. */
export function ListMemoryProvider(props: ParentProps) {
  const location = useLocation()
  const [last, setLast] = createSignal('/sessions')
  createEffect(() => {
    if (location.pathname === '/sessions') setLast(`/sessions${location.search}`)
  })
  return <ListMemoryContext.Provider value={last}>{props.children}</ListMemoryContext.Provider>
}

export function useLastListHref(): Accessor<string> {
  return useContext(ListMemoryContext) ?? (() => '/sessions')
}
