import type { Accessor } from 'solid-js'
import { createQuery } from '../../lib/query'
import type { Api, RouterOutputs } from '../../lib/trpc'
import type { TranscriptRef } from '../transcript/transcript.data'

export type Breakdown = RouterOutputs['sessions']['breakdown']
export type BreakdownEntry = Breakdown['entries'][number]

/** Where one session's bytes go, from the API's breakdown. */
export function createBreakdown(api: Api, session: Accessor<TranscriptRef>) {
  return createQuery(session, (ref, signal) => api.sessions.breakdown.query(ref, { signal }))
}
