import type { PruneBlock, PruneBlockReason, StorageGeneration } from '@loupe/domain'
import type { AppDeps } from '../../deps.js'
import { AppError } from '../../errors.js'
import type { OpenCodeStore, SessionRecord } from '../../store/store.js'
import { resolveSession } from '../sessions/resolve-session.js'
import { createPruneStore, type PruneStore } from './prune-store.js'

export type Blocked = { status: 'blocked'; reason: PruneBlockReason; detail: string }
export const blocked = (b: PruneBlock): Blocked => ({ status: 'blocked', reason: b.reason, detail: b.detail })

/** A session resolved for pruning: its read side (native form) and its generation's write side. */
export interface PruneContext {
  session: SessionRecord
  store: OpenCodeStore
  pruneStore: PruneStore
}

/** Resolve the session (unknown ids stay `not_found`), or a refusal for storage Loupe cannot read. */
export function pruneContext(deps: AppDeps, sessionID: string, storage?: StorageGeneration): PruneContext | Blocked {
  try {
    const { store, session } = resolveSession(deps.opencode, sessionID, storage)
    return { store, session, pruneStore: createPruneStore(session.storage, deps.opencode.layout, deps.pruning.locator) }
  } catch (error) {
    if (error instanceof AppError && error.code === 'unsupported_storage') return blocked({ reason: 'unsupported_storage', detail: error.message })
    throw error
  }
}
