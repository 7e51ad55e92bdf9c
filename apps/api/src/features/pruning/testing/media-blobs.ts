import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'

/** The media-blob shape Loupe recognizes (store/media-blob.ts): bytes in `blob`, owners in `blob_ref`. */
export const MEDIA_TABLES = `
  CREATE TABLE blob (digest TEXT PRIMARY KEY, size INTEGER NOT NULL, mime TEXT NOT NULL, data BLOB NOT NULL, created_at INTEGER NOT NULL);
  CREATE TABLE blob_ref (part_id TEXT NOT NULL, slot TEXT NOT NULL, digest TEXT NOT NULL REFERENCES blob(digest) ON DELETE RESTRICT,
    created_at INTEGER NOT NULL, PRIMARY KEY (part_id, slot));
  CREATE INDEX blob_ref_digest_idx ON blob_ref (digest);`

const OWNERS = {
  /** 1.x: refs are owned by their part row. */
  v1: { table: 'part', id: 'id' },
  /** 2.x: refs are owned by their message row (`session_message.id`). */
  v2: { table: 'session_message', id: 'id' },
} as const

/**
 * Media-blob storage from inline storage: every `data:` URL in a row that holds an image becomes a
 * whole-string `media:<sha256 of the bytes>` ref; the bytes go to `blob` (once per digest) and each
 * occurrence gets a `blob_ref` row owned by its 1.x part or 2.x message. The tables must exist.
 */
export function moveImagesToBlobs(db: Database.Database, generation: 'v1' | 'v2') {
  const { table, id } = OWNERS[generation]
  const rows = db.prepare(`SELECT ${id} AS id, data FROM ${table} WHERE instr(data, 'data:image/') > 0`).all() as { id: string; data: string }[]
  const putBlob = db.prepare(`INSERT OR IGNORE INTO blob (digest, size, mime, data, created_at) VALUES (?, ?, ?, ?, 1)`)
  const putRef = db.prepare(`INSERT INTO blob_ref (part_id, slot, digest, created_at) VALUES (?, ?, ?, 1)`)
  const update = db.prepare(`UPDATE ${table} SET data = ? WHERE ${id} = ?`)
  for (const row of rows) {
    let slot = 0
    const data = JSON.parse(row.data, (_key, value: unknown) => {
      const url = typeof value === 'string' ? /^data:([\w/+.-]+);base64,(.+)$/.exec(value) : null
      if (!url) return value
      const bytes = Buffer.from(url[2]!, 'base64')
      const digest = createHash('sha256').update(bytes).digest('hex')
      putBlob.run(digest, bytes.length, url[1]!, bytes)
      putRef.run(row.id, `ref-${slot++}`, digest)
      return `media:${digest}`
    }) as unknown
    update.run(JSON.stringify(data), row.id)
  }
}

/** Open `file`, add the media tables and move the images of these generations' rows into them. */
export function storeImagesAsBlobs(file: string, ...generations: ('v1' | 'v2')[]) {
  const db = new Database(file)
  try {
    db.exec(MEDIA_TABLES)
    for (const generation of generations) moveImagesToBlobs(db, generation)
  } finally {
    db.close()
  }
}
