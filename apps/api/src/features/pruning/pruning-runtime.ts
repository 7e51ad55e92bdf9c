import type { AppDeps } from '../../deps.js'
import { createEventLocator, type EventLocator } from './event-locator.js'

/**
 * What pruning keeps between requests, per Loupe process (a deps field; tests get their own):
 * where each session's part events are, and the schema version last
 * checked in full inside a write transaction.
 */
export interface PruningRuntime {
  locator: EventLocator
  schema: { checkedVersion: number | null }
  wal: { deferred: boolean }
}

export function createPruningRuntime(): PruningRuntime {
  return { locator: createEventLocator(), schema: { checkedVersion: null }, wal: { deferred: false } }
}

const WAL_FOLD_BYTES = 8 * 1024 * 1024

/**
 * A prune commits without checkpointing (Loupe's connection has `wal_autocheckpoint = 0`), so its
 * latency is the write alone; between requests a WAL over 8 MiB is folded back into the file with
 * a PASSIVE checkpoint, which never waits for (or blocks) OpenCode. "Reclaim space" empties it.
 */
export function deferCheckpoints(deps: AppDeps): void {
  if (deps.pruning.wal.deferred) return
  deps.opencode.db.raw.pragma('wal_autocheckpoint = 0')
  deps.pruning.wal.deferred = true
}

export function foldWal(deps: AppDeps): void {
  const { raw } = deps.opencode.db
  if (!raw.open || raw.inTransaction || deps.opencode.fileSizes().wal <= WAL_FOLD_BYTES) return
  try {
    raw.pragma('wal_checkpoint(PASSIVE)')
  } catch {
    // Best effort: the next request, OpenCode, or "Reclaim space" folds it.
  }
}
