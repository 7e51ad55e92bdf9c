import { createContext, useContext } from 'solid-js'
import { createQuery, type Query } from '../../lib/query'
import type { Api, RouterOutputs } from '../../lib/trpc'

export type StorageInfo = RouterOutputs['storage']['info']

/** What Loupe opened; loaded once by the shell, refreshed from the Storage page. */
export function createStorageInfo(api: Api): Query<StorageInfo> {
  return createQuery(() => 'info', (_key, signal) => api.storage.info.query(undefined, { signal }))
}

export const StorageInfoContext = createContext<Query<StorageInfo>>()

export function useStorageInfo(): Query<StorageInfo> {
  const state = useContext(StorageInfoContext)
  if (!state) throw new Error('useStorageInfo outside the app shell')
  return state
}
