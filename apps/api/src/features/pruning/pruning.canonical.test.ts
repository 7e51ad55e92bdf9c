import { canonicalJson, messageContent, type StorageGeneration } from '@loupe/domain'
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { copyDb, realFixture, tempDir } from '../../../test/harness.js'
import { mayHoldMediaRef } from '../../store/media-blob.js'
import { openOpenCode, type OpenCodeHandle } from '../../store/open-opencode.js'
import { fixtureIds } from '../../../test/fixtures/pruning/fixture-ids.js'
import { storeImagesAsBlobs } from '../../../test/fixtures/pruning/media-blobs.js'
import { buildV2Fixture } from '../../../test/fixtures/pruning/v2-fixture.js'

// Escapes of every kind JSON.stringify writes, non-ASCII text and an astral character, at a size read off the text.
const OUTPUT = 'line "one"\n\ttab \\ back\u0001 ünïcødé ✓ 😀 '.repeat(2000)

/** Every message of every session of `storage`, loaded with `canonical`; each item's pieces against canonicalJson of the item. */
function checkAll(handle: OpenCodeHandle, storage: StorageGeneration) {
  const store = handle.stores.byGeneration[storage]
  if (!store) throw new Error(`no ${storage} store`)
  let read = 0
  let serialized = 0
  for (const session of store.listSessions(handle.db, { includeArchived: true, rootsOnly: false, limit: 10_000 })) {
    const ids = store.messageSlots(handle.db, session.id, { kind: 'earliest' }, 10_000).map((slot) => slot.key.id)
    for (const message of store.loadMessages(handle.db, session.id, ids, { canonical: true })) {
      const content = messageContent(message)
      const items = message.canonicalItems ?? content.map(() => undefined)
      expect(items).toHaveLength(content.length)
      content.forEach((item, i) => {
        const pieces = items[i]
        if (pieces) expect(pieces.join('')).toBe(canonicalJson(item))
        if (pieces) read++
        else serialized++
      })
    }
  }
  return { read, serialized }
}

describe('loadMessages with canonical', () => {
  let handle: OpenCodeHandle | undefined
  const dirs: string[] = []
  let real = ''
  let tour = ''
  beforeAll(async () => {
    const fixture = await realFixture()
    real = fixture.db
    tour = fixtureIds(fixture.dir).tour
  })
  afterEach(() => {
    handle?.db.close()
    handle = undefined
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  })
  const dir = () => {
    const d = tempDir('loupe-canonical-')
    dirs.push(d)
    return d
  }

  it('reads 1.x parts canonically off their text, equal to serializing the read form', () => {
    const file = copyDb(real, dir())
    const db = new Database(file)
    db.prepare(`UPDATE part SET data = json_set(data, '$.state.output', ?) WHERE session_id = ? AND json_extract(data, '$.type') = 'tool'`).run(OUTPUT, tour)
    db.close()
    handle = openOpenCode(file)
    const { read } = checkAll(handle, 'v1')
    expect(read).toBeGreaterThan(3)
  })

  it('serializes 1.x parts whose media refs are inlined from the value, and reads the rest off the text', () => {
    const file = copyDb(real, dir())
    const db = new Database(file)
    db.prepare(`UPDATE part SET data = json_set(data, '$.metadata', json_object('note', ?)) WHERE json_extract(data, '$.type') IN ('file', 'tool')`).run(OUTPUT)
    db.close()
    storeImagesAsBlobs(file, 'v1')
    handle = openOpenCode(file)
    const refs = new Database(file, { readonly: true }).prepare(`SELECT count(*) FROM part WHERE length(data) >= 4096 AND instr(data, '"media:') > 0`).pluck().get() as number
    expect(refs).toBeGreaterThan(0)
    const { read, serialized } = checkAll(handle, 'v1')
    expect(read).toBeGreaterThan(3)
    expect(serialized).toBeGreaterThanOrEqual(refs)
  })

  it.each([false, true])('reads 2.x content items canonically off the row (media refs: %s)', (media) => {
    const { file } = buildV2Fixture(real, path.join(dir(), 'opencode.db'), { media })
    const db = new Database(file)
    db.prepare(`UPDATE session_message SET data = json_set(data, '$.padding', ?) WHERE json_type(data, '$.content') = 'array'`).run(OUTPUT)
    const withRefs = (db.prepare(`SELECT data FROM session_message`).pluck().all() as string[]).filter(mayHoldMediaRef).length
    db.close()
    expect(withRefs > 0).toBe(media)
    handle = openOpenCode(file)
    const { read } = checkAll(handle, 'v2')
    expect(read).toBeGreaterThan(3)
  })
})
