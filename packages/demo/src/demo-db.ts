import fs from 'node:fs'
import Database from 'better-sqlite3'
import { createDemoClock, type WriterContext } from './demo-rows.js'
import { createWorld, planSession } from './demo-plan.js'
import { createDemoSink, writeBootstrap } from './demo-sink.js'
import { playSession } from './demo-turns.js'
import { createIdSource } from './opencode-ids.js'
import { OPENCODE_1_18_33_SCHEMA } from './opencode-schema.js'
import { createRandom } from './random.js'

export interface DemoOptions {
  /** Epoch ms the history ends at; every timestamp in the file is at or before it. */
  now: number
  seed?: number
  /** Top-level sessions (subagent sessions come on top). Default 60. */
  sessions?: number
  /** Keep adding sessions until this many parts exist; overrides `sessions`. */
  targetParts?: number
  /** Write the event log (most of a real file's bytes). Default true. */
  events?: boolean
  /** Home directory the demo repositories live under, e.g. `/home/dev/code/harbor-api`. */
  home?: string
}

export interface DemoSummary {
  sessions: number
  messages: number
  parts: number
  events: number
  bytes: number
}

export const DEMO_DEFAULTS = { seed: 1, sessions: 60, home: '/home/dev' } as const

const DAY = 86_400_000
const isIndex = (sql: string) => /^CREATE (UNIQUE )?INDEX/.test(sql)

/**
 * Write a new SQLite file that is a faithful OpenCode 1.18.33 database (opencode-storage.md §4–§8):
 * the exact schema and migration rows, projects, sessions with their messages, parts and full event
 * log. Deterministic for a given `seed` and `now`. Written to a temporary file and renamed, so an
 * interrupted run never leaves a half-written database behind.
 */
export function generateDemoDb(file: string, options: DemoOptions): DemoSummary {
  const seed = options.seed ?? DEMO_DEFAULTS.seed
  const target = options.targetParts
  const sessions = target === undefined ? (options.sessions ?? DEMO_DEFAULTS.sessions) : Number.POSITIVE_INFINITY
  const events = options.events ?? true
  const tmp = `${file}.partial`
  fs.rmSync(tmp, { force: true })
  const db = new Database(tmp)
  try {
    // A fresh private file: no journal while writing, WAL (as OpenCode leaves it) once done.
    db.pragma('journal_mode = OFF')
    db.pragma('synchronous = OFF')
    db.pragma('foreign_keys = OFF')
    db.pragma('cache_size = -200000')
    for (const sql of OPENCODE_1_18_33_SCHEMA.filter((s) => !isIndex(s))) db.exec(sql)
    const random = createRandom(seed)
    const world = createWorld(random.fork(), options.home ?? DEMO_DEFAULTS.home)
    const estimate = target === undefined ? sessions : Math.ceil(target / 45)
    const start = options.now - Math.max(45 * DAY, estimate * 50 * 60_000)
    const sink = createDemoSink(db, events)
    const clock = createDemoClock(random, start)
    const ctx: WriterContext = { random, ids: createIdSource(random.fork()), clock, events, version: '1.18.33', sink: sink.write }
    db.transaction(() => {
      writeBootstrap(db, world, random, start - 120_000)
      for (let i = 0; i < sessions && (target === undefined || sink.counts.parts < target); i++) {
        const left = target === undefined ? sessions - i : Math.max(1, Math.ceil((target - sink.counts.parts) / Math.max(20, sink.counts.parts / Math.max(1, i))))
        // Spread sessions over what is left of the span; the last ones end a few hours before now.
        const budget = (options.now - 4 * 3_600_000 - clock.now()) / left
        const spec = planSession(world, random, i)
        playSession(ctx, spec, clock.now() + Math.max(30_000, budget * (left > 1 ? 0.2 + random.next() * 1.2 : 0.5)))
      }
    })()
    if (clock.now() > options.now) throw new Error(`demo history overran now by ${clock.now() - options.now} ms`)
    for (const sql of OPENCODE_1_18_33_SCHEMA.filter(isIndex)) db.exec(sql)
    db.pragma('journal_mode = WAL')
    db.close()
    fs.renameSync(tmp, file)
    return { ...sink.counts, bytes: fs.statSync(file).size }
  } catch (error) {
    if (db.open) db.close()
    fs.rmSync(tmp, { force: true })
    throw error
  }
}
