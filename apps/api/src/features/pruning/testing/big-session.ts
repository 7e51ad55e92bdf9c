import Database from 'better-sqlite3'
import { randomInt } from 'node:crypto'

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const MASK = (1n << 48n) - 1n

/** A well-formed ascending OpenCode id (opencode-storage.md §5): prefix + 12 hex of (ms × 4096 + n) + 14 base62. */
export function ascendingId(prefix: 'msg' | 'prt' | 'evt', ms: number, counter: number): string {
  let random = ''
  for (let i = 0; i < 14; i++) random += BASE62[randomInt(62)]
  return `${prefix}_${((BigInt(ms) * 4096n + BigInt(counter)) & MASK).toString(16).padStart(12, '0')}${random}`
}

/**
 * Grow a real 1.x session to `copies` + 1 times its messages: every message, part and event of the
 * session is cloned with fresh ascending ids (all ids inside the JSON remapped), later times, and
 * event seqs continuing the log, as if the same conversation had gone on.
 * Returns the ids of the assistant messages that have tool or reasoning parts.
 */
export function cloneSession(file: string, sessionID: string, copies: number): string[] {
  const db = new Database(file)
  try {
    db.pragma('foreign_keys = ON')
    const messages = db.prepare(`SELECT * FROM message WHERE session_id = ? ORDER BY time_created, id`).all(sessionID) as Array<{ id: string; time_created: number; time_updated: number; data: string }>
    const parts = db.prepare(`SELECT * FROM part WHERE session_id = ? ORDER BY message_id, id`).all(sessionID) as Array<{ id: string; message_id: string; time_created: number; time_updated: number; data: string }>
    const events = db.prepare(`SELECT * FROM event WHERE aggregate_id = ? AND type IN ('message.updated.1', 'message.part.updated.1') ORDER BY seq`).all(sessionID) as Array<{ type: string; data: string }>
    const span = messages.at(-1)!.time_created - messages[0]!.time_created + 60_000
    let seq = (db.prepare(`SELECT seq FROM event_sequence WHERE aggregate_id = ?`).pluck().get(sessionID) as number) + 1
    const insertMessage = db.prepare(`INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)`)
    const insertPart = db.prepare(`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)`)
    const insertEvent = db.prepare(`INSERT INTO event (id, aggregate_id, seq, type, data) VALUES (?, ?, ?, ?, ?)`)
    const technical = new Set(parts.filter((p) => /"type":"(tool|reasoning)"/.test(p.data)).map((p) => p.message_id))
    const out: string[] = []
    db.transaction(() => {
      for (let c = 1; c <= copies; c++) {
        const shift = span * c
        const ids = new Map<string, string>()
        messages.forEach((m, i) => ids.set(m.id, ascendingId('msg', m.time_created + shift, i + 1)))
        parts.forEach((p, i) => ids.set(p.id, ascendingId('prt', p.time_created + shift, i + 1)))
        const remap = (text: string) => text.replace(/(msg|prt)_[0-9a-f]{12}[0-9A-Za-z]{14}/g, (id) => ids.get(id) ?? id).replace(/"call_([0-9a-z]+)"/g, `"call_$1c${c}"`)
        for (const m of messages) {
          insertMessage.run(ids.get(m.id), sessionID, m.time_created + shift, m.time_updated + shift, remap(m.data))
          if (technical.has(m.id)) out.push(ids.get(m.id)!)
        }
        for (const p of parts) insertPart.run(ids.get(p.id), ids.get(p.message_id), sessionID, p.time_created + shift, p.time_updated + shift, remap(p.data))
        events.forEach((e, i) => insertEvent.run(ascendingId('evt', messages[0]!.time_created + shift, i + 1), sessionID, seq++, e.type, remap(e.data)))
      }
      db.prepare(`UPDATE event_sequence SET seq = ? WHERE aggregate_id = ?`).run(seq - 1, sessionID)
    })()
    return out
  } finally {
    db.close()
  }
}
