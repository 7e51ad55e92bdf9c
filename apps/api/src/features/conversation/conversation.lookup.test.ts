import Database from 'better-sqlite3'
import { TRPCError } from '@trpc/server'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { openV2Db, V2_SCHEMA_FILE } from '../../../test/fixtures/v2-db.js'
import { createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'

const SCHEMA_DIR = new URL('../../../../../tools/opencode-schema/', import.meta.url)
const schema1 = () => fs.readFileSync(new URL('opencode-1.18.33-schema.sql', SCHEMA_DIR), 'utf8')
const MARK = JSON.stringify({ 'codenomad.companion': 'images' })
const PROJECT = 'prj_lookup'
const HERE = '/srv/work/tally'
const ELSEWHERE = '/srv/work/other'

type Table = 'session' | 'session_v2'
interface Row {
  id: string
  created: number
  directory?: string
  metadata?: string | null
  parent?: string
  archived?: number
}

/** A database file of the given shape: the real 1.18.33 fixture, a fresh 2.x file, or a 1.x file that 2.x upgraded. */
async function database(kind: 'v1' | 'v2' | 'upgraded'): Promise<string> {
  if (kind === 'v1') return (await realFixture()).db
  const file = path.join(tempDir('loupe-lookup-'), 'opencode.db')
  if (kind === 'v2') {
    openV2Db(file).close()
    return file
  }
  // Upgraded, as far as the lookup reads: the 1.x tables beside `session_v2`.
  const db = new Database(file)
  db.exec(schema1())
  const ddl = /CREATE TABLE `session_v2` \([\s\S]*?\n\);/.exec(fs.readFileSync(V2_SCHEMA_FILE, 'utf8'))
  db.exec(ddl![0])
  db.close()
  return file
}

function seed(deps: TestDeps, table: Table, rows: Row[]) {
  const raw = deps.opencode.db.raw
  raw.prepare(`INSERT OR IGNORE INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, 'git', 1, 1, '[]')`).run(PROJECT, HERE)
  const insert = raw.prepare(
    `INSERT INTO ${table} (id, project_id, parent_id, slug, directory, title, version, metadata, time_created, time_updated, time_archived)
     VALUES (@id, '${PROJECT}', @parent, 'slug', @directory, 'title', '1.18.33', @metadata, @created, @created, @archived)`,
  )
  raw.transaction(() => {
    for (const r of rows) {
      insert.run({ id: r.id, parent: r.parent ?? null, directory: r.directory ?? HERE, metadata: r.metadata === undefined ? MARK : r.metadata, created: r.created, archived: r.archived ?? null })
    }
  })()
}

/** `count` unmarked roots at HERE, created at 1_000_000 + i. */
const plainRoots = (count: number, prefix = 'ses_plain'): Row[] =>
  Array.from({ length: count }, (_, i) => ({ id: `${prefix}${String(i).padStart(6, '0')}`, created: 1_000_000 + i, metadata: null }))

describe.each(['v1', 'v2', 'upgraded'] as const)('the Images conversation lookup (%s storage)', (kind) => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  const table: Table = kind === 'v2' ? 'session_v2' : 'session'

  const open = async (rows: Row[], into: Table = table) => {
    deps = await createTestDeps(await database(kind))
    caller = createCaller({ deps })
    seed(deps, into, rows)
  }
  const find = () => caller.conversation.find({ directory: HERE })
  afterEach(() => deps.cleanup())

  it('finds the newest marked root, by time_created then id', async () => {
    await open([
      { id: 'ses_a_older', created: 10 },
      { id: 'ses_b_tie', created: 20 },
      { id: 'ses_c_tie', created: 20 },
      { id: 'ses_d_plain', created: 30, metadata: '{"other":"x"}' },
    ])
    expect(await find()).toMatchObject({ status: 'found', session: { id: 'ses_c_tie', directory: HERE, projectID: PROJECT } })
  })

  it('skips archived and child sessions, other locations, and metadata that does not say images', async () => {
    await open([
      { id: 'ses_root', created: 1, metadata: null },
      { id: 'ses_archived', created: 2, archived: 5 },
      { id: 'ses_child', created: 3, parent: 'ses_root' },
      { id: 'ses_elsewhere', created: 4, directory: ELSEWHERE },
      { id: 'ses_case', created: 5, metadata: '{"codenomad.companion":"Images"}' },
      { id: 'ses_nested_key', created: 6, metadata: '{"codenomad":{"companion":"images"}}' },
      { id: 'ses_array', created: 7, metadata: '{"codenomad.companion":["images"]}' },
      { id: 'ses_not_object', created: 8, metadata: '"images"' },
      { id: 'ses_malformed', created: 9, metadata: '{"codenomad.companion":"images"' },
    ])
    expect(await find()).toMatchObject({ status: 'absent' })
    expect(await caller.conversation.find({ directory: ELSEWHERE })).toMatchObject({ status: 'found', session: { id: 'ses_elsewhere' } })
  })

  it('answers open with blocked, and creates nothing, when absent and no OpenCode server is configured', async () => {
    await open([{ id: 'ses_root', created: 1, metadata: null }])
    const answer = await caller.conversation.images({ directory: HERE, mode: 'open' })
    expect(answer).toMatchObject({ status: 'blocked', blocked: 'unavailable', hint: expect.stringContaining('--opencode-url') })
    expect(await find()).toMatchObject({ status: 'absent' })
  })

  it('scans 20,000 roots: found at the 20,000th, unknown past it, absent only after a complete scan', async () => {
    await open([{ id: 'ses_marked_oldest', created: 5 }, ...plainRoots(19_999)])
    expect(await find()).toMatchObject({ status: 'found', session: { id: 'ses_marked_oldest' } })
    seed(deps, table, [{ id: 'ses_plain_more', created: 2_000_000, metadata: null }])
    expect(await find()).toMatchObject({ status: 'unknown', reason: expect.stringContaining('20,000') })
    deps.opencode.db.raw.prepare(`UPDATE ${table} SET metadata = NULL WHERE id = 'ses_marked_oldest'`).run()
    expect(await find()).toMatchObject({ status: 'unknown' })
    deps.opencode.db.raw.prepare(`DELETE FROM ${table} WHERE id = 'ses_plain_more'`).run()
    expect(await find()).toMatchObject({ status: 'absent' })
  })

  it('answers unknown when the database cannot be read, and creates nothing', async () => {
    await open([{ id: 'ses_root', created: 1, metadata: null }])
    const other = new Database(deps.opencode.path)
    other.exec(`ALTER TABLE ${table} RENAME TO ${table}_gone`)
    other.close()
    expect(await find()).toMatchObject({ status: 'unknown', reason: expect.stringContaining('could not read') })
    expect(await caller.conversation.images({ directory: HERE, mode: 'open' })).toMatchObject({ status: 'unknown' })
    expect(await caller.conversation.images({ directory: HERE, mode: 'new' })).toMatchObject({ status: 'unknown' })
  })

  it('answers unknown when the file was replaced since Loupe opened it', async () => {
    await open([{ id: 'ses_root', created: 1, metadata: null }])
    fs.copyFileSync(deps.opencode.path, `${deps.opencode.path}.copy`)
    fs.renameSync(`${deps.opencode.path}.copy`, deps.opencode.path)
    expect(await caller.conversation.images({ directory: HERE, mode: 'new' })).toMatchObject({ status: 'unknown', reason: expect.stringContaining('replaced') })
  })

  it('refuses a directory the database does not know, before git or OpenCode', async () => {
    await open([{ id: 'ses_root', created: 1, metadata: null }])
    for (const directory of ['/srv/work', '/srv/work/tally/', '/', '/etc']) {
      await expect(caller.conversation.images({ directory, mode: 'new' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    }
    for (const directory of ['relative/dir', '', '/a\nb', '/a\u0000b']) {
      const error = await caller.conversation.find({ directory }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(TRPCError)
      expect((error as TRPCError).code).toBe('BAD_REQUEST')
    }
  })

  it('knows a project worktree that has no session yet', async () => {
    await open([])
    expect(await find()).toEqual({ status: 'absent', server: { configured: false, url: null } })
  })
})

describe('the lookup over an upgraded file, where one session can be in both tables', () => {
  let deps: TestDeps
  afterEach(() => deps.cleanup())

  it('reads both tables, newest first, and lets the session_v2 copy of a shared id decide', async () => {
    deps = await createTestDeps(await database('upgraded'))
    const caller = createCaller({ deps })
    seed(deps, 'session', [{ id: 'ses_v1_only', created: 10 }, { id: 'ses_shared', created: 30 }])
    seed(deps, 'session_v2', [{ id: 'ses_v2_only', created: 20 }, { id: 'ses_shared', created: 30, metadata: '{}' }])
    expect(await caller.conversation.find({ directory: HERE })).toMatchObject({ status: 'found', session: { id: 'ses_v2_only', storage: 'v2' } })
    deps.opencode.db.raw.prepare(`UPDATE session_v2 SET metadata = NULL WHERE id = 'ses_v2_only'`).run()
    expect(await caller.conversation.find({ directory: HERE })).toMatchObject({ status: 'found', session: { id: 'ses_v1_only' } })
  })
})
