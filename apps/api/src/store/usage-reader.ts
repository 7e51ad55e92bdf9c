import type { UsageCell, UsageSession } from '@loupe/domain'
import type { SqliteDb } from '../lib/sqlite.js'
import { readToken } from './session-totals.js'
import type { MinuteCell, UsageRole } from './usage.store.js'

/** Every generation's usage cells and sessions, as read at one state of the file. */
export interface UsageSnapshot {
  cells: UsageCell[]
  sessions: UsageSession[]
}

export interface UsageReader {
  /** Inside the caller's read transaction; the same answer without reading a row while the file is unchanged. */
  read(db: SqliteDb, tzOffsetMinutes: number): UsageSnapshot
}

/** Offsets whose days are kept: a browser asks for one, a second device or tab rarely for another. */
const OFFSETS_KEPT = 4
const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

type MinutesBySession = Map<string, MinuteCell[]>

const bySession = (cells: MinuteCell[]): MinutesBySession => {
  const out: MinutesBySession = new Map()
  for (const c of cells) {
    const list = out.get(c.sessionID)
    if (list) list.push(c)
    else out.set(c.sessionID, [c])
  }
  return out
}

/** One session's minutes summed into its local days at this offset (truncating, as SQLite's integer division did). */
function sessionDays(minutes: readonly MinuteCell[], tzOffsetMinutes: number): UsageCell[] {
  const days = new Map<string, UsageCell>()
  for (const m of minutes) {
    const day = Math.trunc((m.minute + tzOffsetMinutes) * MINUTE_MS / DAY_MS)
    const key = `${day}\0${m.providerID}\0${m.modelID}`
    const cell = days.get(key)
    if (!cell) {
      days.set(key, { day, storage: m.storage, sessionID: m.sessionID, providerID: m.providerID, modelID: m.modelID, messages: m.messages, tokens: { ...m.tokens }, cost: m.cost })
      continue
    }
    cell.messages += m.messages
    cell.tokens.input += m.tokens.input
    cell.tokens.output += m.tokens.output
    cell.tokens.reasoning += m.tokens.reasoning
    cell.tokens.cacheRead += m.tokens.cacheRead
    cell.tokens.cacheWrite += m.tokens.cacheWrite
    cell.cost += m.cost
  }
  return [...days.values()]
}

/**
 * Reading every assistant message takes a noticeable part of a second on a large file, so each
 * session's minute cells are kept while the file is unchanged (`data_version` plus this
 * connection's `total_changes()`, as the session totals are), and an offset's days are summed from
 * them without a read. After a change, a generation whose stamps move with every write (1.x with an
 * event log) reads again only the sessions whose stamps moved; any other is read whole.
 */
export function createUsageReader(roles: readonly UsageRole[]): UsageReader {
  let token: string | null = null
  let sessions: UsageSession[] = []
  const stamps: (Map<string, string> | null)[] = roles.map(() => null)
  const minutes: (MinutesBySession | null)[] = roles.map(() => null)
  const days = new Map<number, UsageCell[]>()

  const refresh = (db: SqliteDb, i: number, role: UsageRole) => {
    const before = stamps[i] ?? null
    const now = role.stamps ? new Map(db.allSql<{ id: string; seq: number | null; time_updated: number }>(role.stamps).map((r) => [r.id, `${r.seq}:${r.time_updated}`])) : null
    stamps[i] = now
    const kept = minutes[i]
    if (!kept || !before || !now) {
      minutes[i] = bySession(role.minutes(db))
      return
    }
    const changed = [...now].filter(([id, stamp]) => before.get(id) !== stamp).map(([id]) => id)
    for (const id of changed) kept.delete(id)
    for (const id of before.keys()) if (!now.has(id)) kept.delete(id)
    if (changed.length > 0) for (const [id, list] of bySession(role.minutes(db, changed))) kept.set(id, list)
  }

  return {
    read(db, tzOffsetMinutes) {
      const now = readToken(db)
      if (now !== token) {
        token = now
        sessions = roles.flatMap((r) => r.sessions(db))
        roles.forEach((role, i) => refresh(db, i, role))
        days.clear()
      }
      let cells = days.get(tzOffsetMinutes)
      if (!cells) {
        // By session id, not the map's order: a session read again after a change moves to the map's
        // end, and floating-point costs summed in another order differ in their last digits.
        cells = minutes.flatMap((perSession) => [...(perSession?.entries() ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .flatMap(([, list]) => sessionDays(list, tzOffsetMinutes)))
        if (days.size >= OFFSETS_KEPT) days.delete(days.keys().next().value as number)
        days.set(tzOffsetMinutes, cells)
      }
      return { cells, sessions }
    },
  }
}
