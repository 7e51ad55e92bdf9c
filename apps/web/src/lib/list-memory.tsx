import { useLocation } from '@solidjs/router'
import { createContext, createEffect, createSignal, useContext, type Accessor, type ParentProps } from 'solid-js'

interface ListMemory {
  href: Accessor<string>
  remember: (href: string) => void
}

const ListMemoryContext = createContext<ListMemory>()

/** Remembers the last session-list URL (filters and selection included) so "back to list" restores it. */
export function ListMemoryProvider(props: ParentProps) {
  const location = useLocation()
  const [href, setHref] = createSignal('/sessions')
  createEffect(() => {
    if (location.pathname === '/sessions') setHref(`/sessions${location.search}`)
  })
  return <ListMemoryContext.Provider value={{ href, remember: setHref }}>{props.children}</ListMemoryContext.Provider>
}

export function useListMemory(): ListMemory {
  return useContext(ListMemoryContext) ?? { href: () => '/sessions', remember: () => {} }
}
