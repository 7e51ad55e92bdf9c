import type { PruneBlock, PruneBlockReason, StorageGeneration } from '@loupe/domain'
import { AppError } from '../../errors.js'
import type { OpenCodeHandle } from '../../store/open-opencode.js'
import { resolveSession, type ResolvedSession } from '../../store/resolve-session.js'

export type Blocked = { status: 'blocked'; reason: PruneBlockReason; detail: string }
export const blocked = (b: PruneBlock): Blocked => ({ status: 'blocked', reason: b.reason, detail: b.detail })

/** A session resolved for pruning: its generation's store reads the native form (`store`) and writes (`store.prune`). */
export type PruneContext = ResolvedSession

/** Resolve the session (unknown ids stay `not_found`), or a refusal for storage Loupe cannot read. */
export function pruneContext(opencode: OpenCodeHandle, sessionID: string, storage?: StorageGeneration): PruneContext | Blocked {
  try {
    return resolveSession(opencode, sessionID, storage)
  } catch (error) {
    if (error instanceof AppError && error.code === 'unsupported_storage') return blocked({ reason: 'unsupported_storage', detail: error.message })
    throw error
  }
}
