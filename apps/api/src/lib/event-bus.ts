import type { StorageGeneration } from '@loupe/domain'
import { EventEmitter, on } from 'node:events'

/** Events other tabs follow. Payloads hold ids and hashes only. */
export interface LoupeEvents {
  pruned: { sessionID: string; messageID: string; revision: string; storage: StorageGeneration }
  indexProgress: { state: string; indexedParts: number; totalParts: number; mbPerSecond?: number }
  /** Internal (never sent to a client): digests of stored image URIs a prune removed, for derived copies. */
  imagesPruned: { digests: string[] }
}

export interface EventBus {
  emit<K extends keyof LoupeEvents>(type: K, payload: LoupeEvents[K]): void
  subscribe<K extends keyof LoupeEvents>(type: K, listener: (payload: LoupeEvents[K]) => void): () => void
  iterate<K extends keyof LoupeEvents>(type: K, signal?: AbortSignal): AsyncIterable<LoupeEvents[K]>
}

export function createEventBus(): EventBus {
  const emitter = new EventEmitter()
  emitter.setMaxListeners(0)
  return {
    emit: (type, payload) => {
      // Delivery is best effort: a failing listener must never undo a committed write.
      try {
        emitter.emit(type, payload)
      } catch {
        /* listeners own their errors */
      }
    },
    subscribe: (type, listener) => {
      emitter.on(type, listener)
      return () => emitter.off(type, listener)
    },
    iterate: async function* <K extends keyof LoupeEvents>(type: K, signal?: AbortSignal) {
      try {
        for await (const [payload] of on(emitter, type, signal ? { signal } : {})) yield payload as LoupeEvents[K]
      } catch (error) {
        if ((error as Error).name !== 'AbortError') throw error
      }
    },
  }
}
