import { createSignal } from 'solid-js'
import { createQuery } from '../../lib/query'
import type { Api, RouterOutputs } from '../../lib/trpc'

export type ShareView = RouterOutputs['shares']['list']['shares'][number]
export type CreatedShare = RouterOutputs['shares']['create']

/** Expiry choices offered in the dialog, in seconds. */
export const EXPIRIES = [
  { label: '1 hour', seconds: 3600 },
  { label: '1 day', seconds: 86_400 },
  { label: '7 days', seconds: 7 * 86_400 },
  { label: '30 days', seconds: 30 * 86_400 },
] as const

/** The share links of one session, and the two actions on them. */
export function createShares(api: Api, session: () => { sessionID: string; storage: 'v1' | 'v2' }) {
  const [version, setVersion] = createSignal(0)
  const list = createQuery(() => ({ ...session(), v: version() }), (key, signal) => api.shares.list.query({ sessionID: key.sessionID }, { signal }))
  return {
    list,
    async create(expiresIn: number): Promise<CreatedShare> {
      const created = await api.shares.create.mutate({ ...session(), expiresIn })
      setVersion((v) => v + 1)
      return created
    },
    async revoke(id: string) {
      await api.shares.revoke.mutate({ id })
      setVersion((v) => v + 1)
    },
  }
}
