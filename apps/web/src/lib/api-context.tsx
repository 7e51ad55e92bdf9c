import { createContext, useContext, type ParentProps } from 'solid-js'
import type { Api } from './trpc'

const ApiContext = createContext<Api>()

export function ApiProvider(props: ParentProps<{ api: Api }>) {
  return <ApiContext.Provider value={props.api}>{props.children}</ApiContext.Provider>
}

export function useApi(): Api {
  const api = useContext(ApiContext)
  if (!api) throw new Error('useApi outside ApiProvider')
  return api
}
