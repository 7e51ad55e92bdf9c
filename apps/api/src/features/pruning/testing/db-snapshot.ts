import Database from 'better-sqlite3'

/** Every row of every table, keyed `table:rowid`, as JSON text: for "nothing else changed" checks. */
export type DbSnapshot = Map<string, string>

export function snapshotDb(file: string): DbSnapshot {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const out: DbSnapshot = new Map()
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).pluck().all() as string[]
    for (const table of tables) {
      const withoutRowid = /WITHOUT ROWID/i.test(String(db.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).pluck().get(table)))
      const rows = db.prepare(withoutRowid ? `SELECT * FROM "${table}"` : `SELECT rowid AS __rowid, * FROM "${table}"`).all() as Record<string, unknown>[]
      for (const row of rows) {
        const { __rowid, ...rest } = row
        const text = JSON.stringify(rest, (_k, v: unknown) => (Buffer.isBuffer(v) ? `blob:${v.toString('hex')}` : v))
        out.set(`${table}:${withoutRowid ? text : String(__rowid)}`, text)
      }
    }
    return out
  } finally {
    db.close()
  }
}

export interface SnapshotDiff {
  changed: string[]
  added: string[]
  removed: string[]
}

export function diffSnapshots(before: DbSnapshot, after: DbSnapshot): SnapshotDiff {
  const diff: SnapshotDiff = { changed: [], added: [], removed: [] }
  for (const [key, value] of before) {
    const now = after.get(key)
    if (now === undefined) diff.removed.push(key)
    else if (now !== value) diff.changed.push(key)
  }
  for (const key of after.keys()) if (!before.has(key)) diff.added.push(key)
  return diff
}

/** The table part of `table:rowid` keys, counted. */
export function byTable(keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const key of keys) {
    const table = key.slice(0, key.indexOf(':'))
    out[table] = (out[table] ?? 0) + 1
  }
  return out
}
