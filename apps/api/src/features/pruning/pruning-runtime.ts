import type { OpenCodeHandle } from '../../store/open-opencode.js'
import { createTokenMemo, type TokenMemo } from './token-memo.js'

/**
 * What pruning keeps between requests, per Loupe process (a deps field; tests get their own):
 * whether checkpoints were deferred on the connection, and the token estimates plans remember.
 */
export interface PruningRuntime {
  wal: { deferred: boolean }
  tokens: TokenMemo
}

/** What the WAL helpers read: the opened file and pruning's state. */
export interface WalDeps {
  opencode: OpenCodeHandle
  pruning: PruningRuntime
}

export function createPruningRuntime(): PruningRuntime {
  return { wal: { deferred: false }, tokens: createTokenMemo() }
}

const WAL_FOLD_BYTES = 8 * 1024 * 1024

/**
 * A prune commits without checkpointing (Loupe's connection has `wal_autocheckpoint = 0`), so its
 * latency is the write alone; between requests a WAL over 8 MiB is folded back into the file with
 * a PASSIVE checkpoint, which never waits for (or blocks) OpenCode. "Reclaim space" empties it.
 */
export function deferCheckpoints(deps: WalDeps): void {
  if (deps.pruning.wal.deferred) return
  deps.opencode.db.raw.pragma('wal_autocheckpoint = 0')
  deps.pruning.wal.deferred = true
}

export function foldWal(deps: Pick<WalDeps, 'opencode'>): void {
  const { raw } = deps.opencode.db
  if (!raw.open || raw.inTransaction || deps.opencode.fileSizes().wal <= WAL_FOLD_BYTES) return
  try {
    raw.pragma('wal_checkpoint(PASSIVE)')
  } catch {
    // Best effort: the next request, OpenCode, or "Reclaim space" folds it.
  }
}
