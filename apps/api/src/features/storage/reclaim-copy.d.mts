import type Database from 'better-sqlite3'

export type CopyPhase = 'copy' | 'verify'
export declare class CopyRejected extends Error {}
export declare function verifyCopy(source: Database.Database, target: string, cacheKiB?: number): Record<string, number>
export declare function writeVerifiedCopy(sourcePath: string, target: string, onPhase: (phase: CopyPhase) => void, cacheKiB?: number): Record<string, number>
export declare function isDiskFull(error: unknown): boolean

/** What the main thread passes to the copy's worker (reclaim-copy.worker.mjs). */
export interface CopyWorkerData {
  source: string
  target: string
  /** Each connection's page cache, KiB (the storage jobs' role in connection-memory.ts). */
  cacheKiB: number
}

export type CopyWorkerMessage =
  | { type: 'phase'; phase: CopyPhase }
  | { type: 'done'; counts: Record<string, number> }
  | { type: 'error'; kind: 'rejected' | 'disk_full' | 'busy' | 'sqlite'; message: string }
