import { randomBytes } from 'node:crypto'
import Database from 'better-sqlite3'

export interface LongSessionOptions {
  /** Session whose messages and parts are repeated (it must be a 1.x session in `file`). */
  sourceTitle: string
  /** Roughly how many messages the new session should hold. */
  messages: number
  title: string
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const random62 = (n: number) => [...randomBytes(n)].map((b) => BASE62[b % 62]).join('')

/** OpenCode-shaped ids (`msg_` + 12 hex of time·4096+counter + 14 base62) so they sort by creation. */
function idMaker(prefix: string) {
  let counter = 0
  return (time: number) => `${prefix}_${(time * 4096 + (counter++ % 4096)).toString(16).padStart(12, '0').slice(-12)}${random62(14)}`
}

function shiftTimes(value: unknown, delta: number): unknown {
  if (Array.isArray(value)) return value.map((v) => shiftTimes(v, delta))
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    if (key === 'time' && typeof v === 'object' && v !== null) {
      out[key] = Object.fromEntries(Object.entries(v).map(([k, t]) => [k, typeof t === 'number' ? t + delta : t]))
    } else out[key] = shiftTimes(v, delta)
  }
  return out
}

/**
 * Add one long 1.x session to a copied real OpenCode database by repeating a real session's
 * messages and parts (new ids, shifted times, parentIDs remapped), so paging and windowing can be
 * seen in a browser. Only the copy is written; returns the new session's id.
 */
export function addLongSession(file: string, options: LongSessionOptions): { id: string; messages: number } {
  const db = new Database(file)
  try {
    const source = db.prepare(`SELECT * FROM session WHERE title = ? AND parent_id IS NULL`).get(options.sourceTitle) as Record<string, unknown> | undefined
    if (!source) throw new Error(`no session titled ${options.sourceTitle}`)
    const messages = db.prepare(`SELECT * FROM message WHERE session_id = ? ORDER BY time_created, id`).all(source.id) as { id: string; time_created: number; data: string }[]
    const parts = db.prepare(`SELECT * FROM part WHERE session_id = ? ORDER BY message_id, id`).all(source.id) as { id: string; message_id: string; time_created: number; data: string }[]
    const first = messages[0]?.time_created ?? 0
    const span = (messages.at(-1)?.time_created ?? first) - first + 60_000
    const copies = Math.max(1, Math.ceil(options.messages / Math.max(1, messages.length)))
    const start = Number(source.time_created) - copies * span
    const sessionID = idMaker('ses')(start)
    const msgId = idMaker('msg')
    const prtId = idMaker('prt')
    const insertMessage = db.prepare(`INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)`)
    const insertPart = db.prepare(`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)`)
    db.transaction(() => {
      const columns = Object.keys(source).filter((c) => c !== 'id')
      // The session's own totals (1.18 keeps cost and tokens on the row) cover every copy, as OpenCode's would.
      const totals = Object.fromEntries(Object.entries(source).filter(([c, v]) => (c === 'cost' || c.startsWith('tokens_')) && typeof v === 'number').map(([c, v]) => [c, (v as number) * copies]))
      const row = { ...source, ...totals, title: options.title, slug: 'long-transcript', time_created: start, time_updated: Date.now() }
      db.prepare(`INSERT INTO session (id, ${columns.join(', ')}) VALUES (?, ${columns.map(() => '?').join(', ')})`).run(sessionID, ...columns.map((c) => row[c as keyof typeof row]))
      for (let copy = 0; copy < copies; copy++) {
        const delta = start - first + copy * span
        const ids = new Map<string, string>()
        for (const message of messages) ids.set(message.id, msgId(message.time_created + delta))
        for (const message of messages) {
          const data = shiftTimes(JSON.parse(message.data), delta) as Record<string, unknown>
          if (typeof data.parentID === 'string') data.parentID = ids.get(data.parentID) ?? data.parentID
          insertMessage.run(ids.get(message.id), sessionID, message.time_created + delta, message.time_created + delta, JSON.stringify(data))
        }
        for (const part of parts) {
          const data = JSON.stringify(shiftTimes(JSON.parse(part.data), delta))
          insertPart.run(prtId(part.time_created + delta), ids.get(part.message_id), sessionID, part.time_created + delta, part.time_created + delta, data)
        }
      }
    })()
    return { id: sessionID, messages: copies * messages.length }
  } finally {
    db.close()
  }
}
