import Database from 'better-sqlite3'

export interface Bloat {
  sessionID: string
  partID: string
  /** Snapshot events appended for the one part. */
  added: number
}

/**
 * Append a streaming tool's snapshot chain to a copy of a real 1.x DB, as OpenCode writes it: one
 * `message.part.updated.1` per progress step, each holding the whole output so far, the last one
 * the part's final state. Then delete `freeRows` old events' worth of pages, so VACUUM has free
 * pages to drop as well.
 */
export function bloatDb(file: string, options: { snapshots: number; stepBytes: number }): Bloat {
  const db = new Database(file)
  try {
    const row = db
      .prepare(`SELECT aggregate_id AS agg, data FROM event WHERE type = 'message.part.updated.1' AND data LIKE '%"type":"tool"%' ORDER BY seq DESC LIMIT 1`)
      .get() as { agg: string; data: string }
    const event = JSON.parse(row.data) as { sessionID: string; part: Record<string, unknown> & { id: string; state: Record<string, unknown> }; time: number }
    let seq = db.prepare(`SELECT seq FROM event_sequence WHERE aggregate_id = ?`).pluck().get(row.agg) as number
    const insert = db.prepare(`INSERT INTO event (id, aggregate_id, seq, type, data) VALUES (?, ?, ?, 'message.part.updated.1', ?)`)
    const chunk = 'progress line 0123456789 abcdefghijklmnopqrstuvwxyz\n'.repeat(Math.ceil(options.stepBytes / 51)).slice(0, options.stepBytes)
    db.transaction(() => {
      let output = ''
      for (let i = 0; i < options.snapshots; i++) {
        output += chunk
        const state = { ...event.part.state, status: 'running', metadata: { output } }
        seq += 1
        insert.run(`evt_zz${String(i).padStart(8, '0')}`, row.agg, seq, JSON.stringify({ sessionID: event.sessionID, part: { ...event.part, state }, time: event.time + i }))
      }
      db.prepare(`UPDATE event_sequence SET seq = ? WHERE aggregate_id = ?`).run(seq, row.agg)
    })()
    db.pragma('wal_checkpoint(TRUNCATE)')
    return { sessionID: row.agg, partID: event.part.id, added: options.snapshots }
  } finally {
    db.close()
  }
}

/** Drop the newest `count` appended snapshots again: their pages become free pages. */
export function dropSnapshots(file: string, count: number): void {
  const db = new Database(file)
  try {
    db.prepare(`DELETE FROM event WHERE id IN (SELECT id FROM event WHERE id LIKE 'evt_zz%' ORDER BY id DESC LIMIT ?)`).run(count)
    db.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    db.close()
  }
}
