import type { StorageGeneration } from '@loupe/domain'
import { AppError } from '../errors.js'
import type { OpenCodeHandle } from './open-opencode.js'
import type { OpenCodeStore, SessionRecord } from './store.js'

export interface ResolvedSession {
  store: OpenCodeStore
  session: SessionRecord
}

/**
 * Find a session in the opened database. Without `storage`, an id present in both generations
 * (an upgraded 2.x file keeps the 1.x copy) resolves to the 2.x copy, the one OpenCode 2 reads.
 * Unknown ids and unreadable storage answer the same `not_found`, so ids cannot be probed.
 */
export function resolveSession(opencode: OpenCodeHandle, sessionID: string, storage?: StorageGeneration): ResolvedSession {
  if (!opencode.layout.readable) {
    throw new AppError('unsupported_storage', `Loupe does not recognize this database's schema: ${opencode.layout.problems.join('; ')}`)
  }
  const stores = storage ? [opencode.stores.byGeneration[storage]] : [opencode.stores.byGeneration.v2, opencode.stores.byGeneration.v1]
  for (const store of stores) {
    if (!store) continue
    const session = opencode.db.read(() => store.getSession(opencode.db, sessionID))
    if (session) return { store, session }
  }
  throw new AppError('not_found', `No session ${sessionID} in this database.`)
}
