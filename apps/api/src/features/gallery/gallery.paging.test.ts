import { decodeTarget, utf8Length } from '@loupe/domain'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, type TestDeps } from '../../../test/harness.js'
import { createV1GalleryDb, v1FilePart, v1ReadPart } from '../../../test/fixtures/gallery/v1-gallery-db.js'
import { dataUri, makePng } from '../../../test/fixtures/gallery/png.js'
import { createV2GalleryDb, readItem } from '../../../test/fixtures/gallery/v2-gallery-db.js'
import type { GalleryEntry, GalleryPage } from './gallery.schema.js'

const MiB = 1024 * 1024
type Caller = ReturnType<typeof createCaller>
type Page = Extract<GalleryPage, { status: 'page' }>

async function walk(caller: Caller, sessionID: string, limit = 1000): Promise<Page[]> {
  const pages: Page[] = []
  let cursor: string | undefined
  for (let i = 0; i < limit; i++) {
    const page = await caller.gallery.images({ sessionID, ...(cursor ? { cursor } : {}) })
    if (page.status !== 'page') throw new Error(`blocked: ${JSON.stringify(page)}`)
    pages.push(page)
    if (!page.cursor) return pages
    cursor = page.cursor
  }
  throw new Error('gallery did not end')
}

const names = (entries: GalleryEntry[]) => entries.map((e) => (e.kind === 'image' ? e.name : e.kind))

function expectPageInvariants(page: Page) {
  expect(page.entries.length).toBeLessThanOrEqual(64)
  expect(page.scanned.bytes).toBeLessThanOrEqual(32 * MiB)
  expect(utf8Length(JSON.stringify(page.entries))).toBeLessThanOrEqual(MiB)
}

/** 5,000 messages (2,500 turns) with an image read every 5th turn: 500 images, newest first. */
function bigSession<T>(add: (turn: number, withImage: boolean) => T) {
  for (let turn = 0; turn < 2500; turn++) add(turn, turn % 5 === 0)
}

describe.each(['v2', 'v1'] as const)('gallery paging on a 5,000-message session with 500 images (%s)', (generation) => {
  let deps: TestDeps
  let caller: Caller
  let sessionID: string

  beforeAll(async () => {
    const file = path.join(tempDir(), 'opencode.db')
    const when = (turn: number) => 1_800_000_000_000 + turn * 1000
    if (generation === 'v2') {
      const b = createV2GalleryDb(file)
      sessionID = b.session({ directory: '/work/project' })
      b.db.transaction(() =>
        bigSession((turn, withImage) => {
          b.user(sessionID, { text: `turn ${turn}`, time: when(turn) })
          const content = withImage ? [readItem(`call_${turn}`, `shots/${turn}.png`, [dataUri(makePng(4, 4, turn))], when(turn) + 10, when(turn) + 20)] : [{ type: 'text', text: `answer ${turn}` }]
          b.assistant(sessionID, content, { time: when(turn) + 5 })
        }),
      )()
      b.close()
    } else {
      const b = createV1GalleryDb(file)
      sessionID = b.session({ directory: '/work/project' })
      b.db.transaction(() =>
        bigSession((turn, withImage) => {
          b.message(sessionID, 'user', [{ type: 'text', text: `turn ${turn}` }], when(turn))
          const parts = withImage ? [v1ReadPart(`/work/project/shots/${turn}.png`, [dataUri(makePng(4, 4, turn))], when(turn) + 10, when(turn) + 20)] : [{ type: 'text', text: `answer ${turn}` }]
          b.message(sessionID, 'assistant', parts, when(turn) + 5)
        }),
      )()
      b.close()
    }
    deps = await createTestDeps(file)
    caller = createCaller({ deps })
  }, 120_000)
  afterAll(() => deps?.cleanup())

  it('lists every image exactly once, newest first, in pages within every budget', async () => {
    const pages = await walk(caller, sessionID)
    const all = pages.flatMap((p) => p.entries)
    expect(all).toHaveLength(500)
    expect(new Set(all.map((e) => e.target)).size).toBe(500)
    expect(names(all)).toEqual(Array.from({ length: 500 }, (_, i) => `${(499 - i) * 5}.png`))
    for (const page of pages) {
      expectPageInvariants(page)
      // 32 assistant rows (and their 32 user rows) per page: 64 rows, 32 turns
      expect(page.scanned.rows).toBeLessThanOrEqual(64)
    }
    expect(pages.length).toBe(Math.ceil(2500 / 32))
    for (const e of all) expect(e).toMatchObject({ kind: 'image', source: 'read', origin: 'unverifiable', available: true, mime: 'image/png' })
  })

  it('keeps its pages when rows are added after the first page (`through`)', async () => {
    const first = await caller.gallery.images({ sessionID })
    if (first.status !== 'page' || !first.cursor) throw new Error('expected a cursor')
    const db = deps.opencode.db.raw
    if (generation === 'v2') {
      const row = db.prepare(`SELECT * FROM session_message WHERE session_id = ? ORDER BY seq DESC LIMIT 1`).get(sessionID) as Record<string, unknown>
      db.prepare(`INSERT INTO session_message (id, session_id, type, seq, time_created, time_updated, data) VALUES (?, ?, 'assistant', ?, ?, ?, ?)`)
        .run('msg_zzzzzzzzzzzzzzzzzzzzzzzzzz', sessionID, Number(row.seq) + 10, 1_900_000_000_000, 1_900_000_000_000, JSON.stringify({ content: [readItem('call_new', 'new.png', [dataUri(makePng(2, 2, 999))], 1, 2)], time: { created: 1 } }))
    } else {
      db.prepare(`INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)`)
        .run('msg_zzzzzzzzzzzzzzzzzzzzzzzzzz', sessionID, 1_900_000_000_000, 1_900_000_000_000, JSON.stringify({ role: 'assistant', time: { created: 1 } }))
      db.prepare(`INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)`)
        .run('prt_zzzzzzzzzzzzzzzzzzzzzzzzzz', 'msg_zzzzzzzzzzzzzzzzzzzzzzzzzz', sessionID, 1, 1, JSON.stringify(v1ReadPart('/work/project/new.png', [dataUri(makePng(2, 2, 999))], 1, 2)))
    }
    // a fresh first page sees the new image; the old cursor's pages do not shift
    const fresh = await caller.gallery.images({ sessionID })
    expect(fresh.status === 'page' && fresh.entries[0]!.kind === 'image' && fresh.entries[0]!.name).toBe('new.png')
    const second = await caller.gallery.images({ sessionID, cursor: first.cursor })
    if (second.status !== 'page') throw new Error('expected a page')
    expect(names(second.entries)[0]).toBe(`${(499 - first.entries.length) * 5}.png`)
  })

  it('binds cursors to the session and the revert boundary (conflict otherwise)', async () => {
    const first = await caller.gallery.images({ sessionID })
    if (first.status !== 'page' || !first.cursor) throw new Error('expected a cursor')
    const table = generation === 'v2' ? 'session_v2' : 'session'
    const target = decodeTarget(first.entries[3]!.target)
    if (!target.ok) throw new Error('bad target')
    deps.opencode.db.raw.prepare(`UPDATE ${table} SET revert = ? WHERE id = ?`).run(JSON.stringify({ messageID: target.value.messageID }), sessionID)
    try {
      expect(await caller.gallery.images({ sessionID, cursor: first.cursor })).toEqual({ status: 'blocked', reason: 'conflict' })
      // every read stops before the boundary: the reverted message and everything after it are gone
      const after = await caller.gallery.images({ sessionID })
      if (after.status !== 'page') throw new Error('expected a page')
      expect(after.entries[0]!.target).toBe(first.entries[4]!.target)
    } finally {
      deps.opencode.db.raw.prepare(`UPDATE ${table} SET revert = NULL WHERE id = ?`).run(sessionID)
    }
  })
})

describe('gallery budgets on crafted rows (2.x)', () => {
  let deps: TestDeps
  let caller: Caller
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    const file = path.join(tempDir(), 'opencode.db')
    const b = createV2GalleryDb(file)
    const img = (seed: number) => dataUri(makePng(3, 3, seed))
    // 100 image files in one read part: 64 + 36
    ids.hundred = b.session()
    b.assistant(ids.hundred, [readItem('call_h', 'many.png', Array.from({ length: 100 }, (_, i) => img(i)), 10, 20)])
    // the same, with an older row: the cursor's row is pruned between pages
    ids.pruned = b.session()
    b.assistant(ids.pruned, [readItem('call_o', 'older.png', [img(200), img(201)], 1, 2)])
    b.assistant(ids.pruned, [readItem('call_h2', 'many.png', Array.from({ length: 100 }, (_, i) => img(300 + i)), 10, 20)])
    // 40 assistant rows with one image each: 32 rows per page
    ids.forty = b.session()
    for (let i = 0; i < 40; i++) b.assistant(ids.forty, [readItem(`call_${i}`, `f${i}.png`, [img(i)], 10 + i, 11 + i)])
    // rows near 16 MiB: 15.9 + 15.9 fit 32 MiB; the next 8 MiB row becomes the cursor at offset 0
    ids.near = b.session()
    b.assistant(ids.near, [readItem('call_c', 'c.png', [img(3)], 1, 2)], { pad: 8 * MiB })
    b.assistant(ids.near, [readItem('call_b', 'b.png', [img(2)], 3, 4)], { pad: 16 * MiB - 100 * 1024 })
    b.assistant(ids.near, [readItem('call_a', 'a.png', [img(1)], 5, 6)], { pad: 16 * MiB - 100 * 1024 })
    // a row over 16 MiB between two small ones
    ids.over = b.session()
    b.assistant(ids.over, [readItem('call_o1', 'old.png', [img(7)], 1, 2)])
    b.assistant(ids.over, [readItem('call_big', 'big.png', [img(8)], 3, 4)], { pad: 16 * MiB + 10 })
    b.assistant(ids.over, [readItem('call_o2', 'new.png', [img(9)], 5, 6)])
    // pasted images (user files, both stored forms) between reads
    ids.pasted = b.session()
    b.user(ids.pasted, { files: [{ uri: img(20), mime: 'image/png', name: 'first.png' }] })
    b.assistant(ids.pasted, [readItem('call_p', 'read.png', [img(21)], 1, 2)])
    b.user(ids.pasted, { files: [{ data: makePng(3, 3, 22).toString('base64'), mime: 'image/png', name: 'second.png' }, { data: 'AAAA', mime: 'text/plain' }] })
    b.close()
    deps = await createTestDeps(file)
    caller = createCaller({ deps })
  }, 120_000)
  afterAll(() => deps?.cleanup())

  it('pages 100 files of one message as 64 + 36, resuming mid-row in file order', async () => {
    const pages = await walk(caller, ids.hundred!)
    expect(pages.map((p) => p.entries.length)).toEqual([64, 36])
    const indexes = pages.flatMap((p) => p.entries.map((e) => {
      const t = decodeTarget(e.target)
      return t.ok && t.value.kind === 'image' ? t.value.index : -1
    }))
    expect(indexes).toEqual(Array.from({ length: 100 }, (_, i) => i + 1))
  })

  it('starts the next row whole when the cursor\'s row was pruned between pages', async () => {
    const first = await caller.gallery.images({ sessionID: ids.pruned! })
    if (first.status !== 'page' || !first.cursor) throw new Error('expected a cursor')
    expect(first.entries).toHaveLength(64)
    const target = decodeTarget(first.entries[0]!.target)
    if (!target.ok) throw new Error('bad target')
    deps.opencode.db.raw.prepare(`DELETE FROM session_message WHERE id = ?`).run(target.value.messageID)
    const next = await caller.gallery.images({ sessionID: ids.pruned!, cursor: first.cursor })
    expect(next.status === 'page' && next.entries.map((e) => decodeTarget(e.target).ok && (decodeTarget(e.target) as { value: { index: number } }).value.index)).toEqual([1, 2])
  })

  it('holds at most 32 assistant rows per page', async () => {
    const pages = await walk(caller, ids.forty!)
    expect(pages.map((p) => p.entries.length)).toEqual([32, 8])
    expect(names(pages.flatMap((p) => p.entries))).toEqual(Array.from({ length: 40 }, (_, i) => `f${39 - i}.png`))
  })

  it('size-checks each row before it loads: two rows near 16 MiB fill 32 MiB, the next row starts page 2', async () => {
    const pages = await walk(caller, ids.near!)
    expect(pages.map((p) => names(p.entries))).toEqual([['a.png', 'b.png'], ['c.png']])
    expect(pages[0]!.scanned.rows).toBe(2)
    expect(pages[0]!.scanned.bytes).toBeGreaterThan(31 * MiB)
  })

  it('answers blocked: limit for a row over 16 MiB, after emitting the rows before it, and offers a resume cursor', async () => {
    const first = await caller.gallery.images({ sessionID: ids.over! })
    if (first.status !== 'page' || !first.cursor) throw new Error('expected a page with a cursor')
    expect(names(first.entries)).toEqual(['new.png'])
    const blocked = await caller.gallery.images({ sessionID: ids.over!, cursor: first.cursor })
    expect(blocked).toMatchObject({ status: 'blocked', reason: 'limit' })
    if (blocked.status !== 'blocked' || blocked.reason !== 'limit') throw new Error('expected limit')
    expect(blocked.bytes).toBeGreaterThan(16 * MiB)
    const rest = await caller.gallery.images({ sessionID: ids.over!, cursor: blocked.resume! })
    expect(rest.status === 'page' && names(rest.entries)).toEqual(['old.png'])
  })

  it('lists pasted images, marked as such, with the reads in row and file order', async () => {
    const [page] = await walk(caller, ids.pasted!)
    expect(page!.entries.map((e) => e.kind === 'image' && [e.source, e.name])).toEqual([
      ['pasted', 'second.png'],
      ['read', 'read.png'],
      ['pasted', 'first.png'],
    ])
  })
})

describe('1.x: pasted file parts and read attachments', () => {
  it('lists them newest first with their sources', async () => {
    const file = path.join(tempDir(), 'opencode.db')
    const b = createV1GalleryDb(file)
    const s = b.session()
    b.message(s, 'user', [{ type: 'text', text: 'see' }, v1FilePart(dataUri(makePng(2, 2, 1)), 'pasted.png')], 10)
    b.message(s, 'assistant', [{ type: 'step-start' }, v1ReadPart('/work/project/a.png', [dataUri(makePng(2, 2, 2)), dataUri(makePng(2, 2, 3))], 20, 21)], 20)
    b.close()
    const deps = await createTestDeps(file)
    try {
      const page = await createCaller({ deps }).gallery.images({ sessionID: s })
      expect(page.status === 'page' && page.entries.map((e) => e.kind === 'image' && [e.source, e.name, e.part])).toEqual([
        ['read', 'a.png', 1],
        ['read', 'a.png', 1],
        ['pasted', 'pasted.png', 1],
      ])
    } finally {
      deps.cleanup()
    }
  })
})
