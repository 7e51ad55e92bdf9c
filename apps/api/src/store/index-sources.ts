import type { SqliteDb } from '../lib/sqlite.js'
import { createV1IndexSource } from './index-source-v1.store.js'
import { createV2IndexSource } from './index-source-v2.store.js'
import type { IndexSourceStore, SessionHead, SourceSession } from './index-source.js'
import type { StorageLayout } from './probe.js'

/**
 * The index source roles of an opened database, in the probe's fixed order (the order the build
 * and the literal scan visit them), plus what spans them.
 */
export interface IndexSources {
  readonly all: readonly IndexSourceStore[]
  /** The role whose documents carry this `gen` tag; undefined for a generation this file lacks. */
  of(gen: string): IndexSourceStore | undefined
  /** The phase after `gen`'s (build, scan): the next role's tag, or 'done'. */
  after(gen: string): string
  /** Where `gen`'s role is in the order; -1 for none (a phase such as 'titles' or 'done'). */
  order(gen: string): number
  sessions(db: SqliteDb): SourceSession[]
  /** Title and revert boundary of these sessions, by `gen:id` key. */
  heads(db: SqliteDb, keys: Iterable<string>): Map<string, SessionHead>
  hasSession(db: SqliteDb, column: 'project_id' | 'directory', value: string): boolean
  /** Staged reverts: `gen:sessionID` → the first message hidden until OpenCode commits or undoes it. */
  revertBoundaries(db: SqliteDb): Map<string, string>
  /** The event log's last seq per session; null without an event log. */
  sequences(db: SqliteDb): Map<string, number> | null
}

/** The roles for a database probed on this thread's own connection (the indexing threads). */
export function createIndexSources(storage: StorageLayout): IndexSources {
  return collectIndexSources(storage.generations.map((g) => (g.generation === 'v1' ? createV1IndexSource(g, storage) : createV2IndexSource(g, storage))), storage)
}

/** The roles built with an opened database's stores. */
export const indexSourcesOf = (opencode: { stores: { all: ReadonlyArray<{ indexSource: IndexSourceStore }> }; layout: StorageLayout }) =>
  collectIndexSources(opencode.stores.all.map((s) => s.indexSource), opencode.layout)

export function collectIndexSources(all: readonly IndexSourceStore[], storage: StorageLayout): IndexSources {
  const byGen = new Map(all.map((s) => [s.gen as string, s]))
  const order = all.map((s) => s.gen as string)
  return {
    all,
    of: (gen) => byGen.get(gen),
    after: (gen) => order[order.indexOf(gen) + 1] ?? 'done',
    order: (gen) => order.indexOf(gen),
    sessions: (db) => all.flatMap((s) => s.sessions(db)),
    heads(db, keys) {
      const byGenIds = new Map<string, string[]>()
      for (const key of new Set(keys)) {
        const at = key.indexOf(':')
        const gen = key.slice(0, at)
        byGenIds.set(gen, [...(byGenIds.get(gen) ?? []), key.slice(at + 1)])
      }
      const out = new Map<string, SessionHead>()
      for (const [gen, ids] of byGenIds) {
        const source = byGen.get(gen)
        if (!source) continue
        for (const [id, head] of source.heads(db, ids)) out.set(`${gen}:${id}`, head)
      }
      return out
    },
    hasSession: (db, column, value) => all.some((s) => s.hasSession(db, column, value)),
    revertBoundaries(db) {
      const out = new Map<string, string>()
      for (const s of all) for (const [id, messageID] of s.revertBoundaries(db)) out.set(`${s.gen}:${id}`, messageID)
      return out
    },
    sequences(db) {
      if (!storage.eventLog) return null
      return new Map(db.allSql<{ aggregate_id: string; seq: number }>(`SELECT aggregate_id, seq FROM event_sequence`).map((r) => [r.aggregate_id, r.seq]))
    },
  }
}
