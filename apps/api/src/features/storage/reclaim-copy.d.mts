import type Database from 'better-sqlite3'

export type CopyPhase = 'copy' | 'verify'
export declare class CopyRejected extends Error {}
export declare function verifyCopy(source: Database.Database, target: string): Record<string, number>
export declare function writeVerifiedCopy(sourcePath: string, target: string, onPhase: (phase: CopyPhase) => void): Record<string, number>
export declare function isDiskFull(error: unknown): boolean

/** What the main thread passes to the copy's worker (reclaim-copy.worker.mjs). */
export interface CopyWorkerData {
  source: string
  target: string
}

export type CopyWorkerMessage =
  | { type: 'phase'; phase: CopyPhase }
  | { type: 'done'; counts: Record<string, number> }
  | { type: 'error'; kind: 'rejected' | 'disk_full' | 'busy' | 'sqlite'; message: string }
