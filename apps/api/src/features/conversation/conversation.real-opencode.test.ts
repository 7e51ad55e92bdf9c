import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { startOpenCodeServe, type OpenCodeServe } from '../../../../../tools/opencode-serve.js'
import { createOpenCodeClient } from '../../opencode/opencode-client.js'

const MARKER = { 'codenomad.companion': 'images' }

/** A Loupe (deps on a copy of the real fixture) and the real `opencode serve` on that same file. */
async function loupeWithOpenCode(options: { password?: string } = {}) {
  const deps = await createTestDeps((await realFixture()).db)
  const opencode = await startOpenCodeServe({ dbPath: deps.opencode.path, password: options.password })
  const useServer = (password: string | null, url = opencode.url) => {
    deps.opencodeClient = createOpenCodeClient({ url, username: null, password, timeouts: { workMs: 30_000 } })
  }
  useServer(options.password ?? null)
  return { deps, opencode, caller: createCaller({ deps }), useServer }
}

describe('the Images conversation through the real OpenCode 1.18.33', () => {
  let deps: TestDeps
  let opencode: OpenCodeServe
  let caller: ReturnType<typeof createCaller>
  let root: string
  let projects = 0

  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env: { ...deps.conversation.git.env, LC_ALL: 'C' }, encoding: 'utf8' })
  /** A git project OpenCode has worked in (one ordinary session), so Loupe's database knows it. */
  const location = async (server: OpenCodeServe = opencode) => {
    const dir = path.join(root, `project-${++projects}`)
    fs.mkdirSync(dir)
    git(dir, 'init', '-q', '-b', 'main')
    git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', `init ${dir}`)
    const plain = await server.api<{ id: string }>('POST', '/session', { directory: dir, body: { title: 'ordinary work' } })
    return { dir, plainID: plain.id }
  }
  /** Marked sessions of a directory, straight from the file both programs share. */
  const marked = (dir: string, db = deps) =>
    db.opencode.db.raw.prepare(`SELECT id, parent_id, time_archived FROM session WHERE directory = ? AND json_extract(metadata, '$."codenomad.companion"') = 'images' ORDER BY time_created`).all(dir) as { id: string }[]
  const untracked = (dir: string) => git(dir, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean)

  beforeAll(async () => {
    ;({ deps, opencode, caller } = await loupeWithOpenCode())
    root = tempDir('loupe-convo-')
  })
  afterAll(async () => {
    await opencode?.stop()
    deps?.cleanup()
    if (root) fs.rmSync(root, { recursive: true, force: true })
  })

  it('open on a location without one creates exactly one marked session, which OpenCode reads back, and keeps the design folder out of git', async () => {
    const { dir } = await location()
    const answer = await caller.conversation.images({ directory: dir, mode: 'open', title: 'Images' })
    expect(answer).toMatchObject({ status: 'created', session: { directory: dir, title: 'Images', storage: 'v1' } })
    if (answer.status !== 'created') return
    expect(answer.command).toBe(`opencode -s ${answer.session.id}`)
    expect(marked(dir).map((s) => s.id)).toEqual([answer.session.id])
    const info = await opencode.api('GET', `/session/${answer.session.id}`, { directory: dir })
    expect(info).toMatchObject({ id: answer.session.id, directory: dir, title: 'Images', metadata: MARKER })
    expect(info.parentID).toBeUndefined()

    expect(answer.gitExclusion).toEqual({ status: 'added', rule: '.codenomad/design/', file: path.join(dir, '.git/info/exclude') })
    fs.mkdirSync(path.join(dir, '.codenomad/design'), { recursive: true })
    fs.writeFileSync(path.join(dir, '.codenomad/design/board.png'), 'png')
    fs.writeFileSync(path.join(dir, 'README.md'), 'hi')
    expect(untracked(dir)).toEqual(['?? README.md'])

    const again = await caller.conversation.images({ directory: dir, mode: 'open', title: 'Another title' })
    expect(again).toMatchObject({ status: 'found', session: { id: answer.session.id, title: 'Images' }, gitExclusion: { status: 'present' } })
    expect(marked(dir)).toHaveLength(1)
  })

  it('two concurrent opens create one conversation', async () => {
    const { dir } = await location()
    const answers = await Promise.all([1, 2, 3].map(() => caller.conversation.images({ directory: dir, mode: 'open' })))
    expect(answers.map((a) => a.status).sort()).toEqual(['created', 'found', 'found'])
    const ids = new Set(answers.map((a) => ('session' in a ? a.session.id : null)))
    expect(ids.size).toBe(1)
    expect(marked(dir).map((s) => s.id)).toEqual([...ids])
  })

  it('new always creates, and open then returns the newest', async () => {
    const { dir } = await location()
    const first = await caller.conversation.images({ directory: dir, mode: 'open' })
    const second = await caller.conversation.images({ directory: dir, mode: 'new', title: 'Images 2' })
    expect(first.status).toBe('created')
    expect(second).toMatchObject({ status: 'created', session: { title: 'Images 2' } })
    const newest = await caller.conversation.images({ directory: dir, mode: 'open' })
    expect(newest).toMatchObject({ status: 'found', session: { id: 'session' in second ? second.session.id : '' } })
    expect(marked(dir)).toHaveLength(2)
  })

  it('does not find an archived marked session, a marked child session, or another location\'s', async () => {
    const { dir, plainID } = await location()
    const archived = await caller.conversation.images({ directory: dir, mode: 'open' })
    if (archived.status !== 'created') throw new Error(`expected created, got ${JSON.stringify(archived)}`)
    await opencode.api('PATCH', `/session/${archived.session.id}`, { directory: dir, body: { time: { archived: Date.now() } } })
    const child = await opencode.api('POST', '/session', { directory: dir, body: { parentID: plainID, title: 'child', metadata: MARKER } })
    expect(marked(dir).map((s) => s.id).sort()).toEqual([archived.session.id, child.id].sort())
    expect(await caller.conversation.find({ directory: dir })).toMatchObject({ status: 'absent' })

    const other = await location()
    const created = await caller.conversation.images({ directory: dir, mode: 'open' })
    expect(created).toMatchObject({ status: 'created' })
    expect(await caller.conversation.find({ directory: other.dir })).toMatchObject({ status: 'absent' })
  })

  it('applies title, agent and model only when creating, and refuses an agent OpenCode does not offer', async () => {
    const { dir } = await location()
    const catalog = await caller.conversation.catalog({ directory: dir })
    expect(catalog).toMatchObject({ status: 'ok' })
    if (catalog.status !== 'ok') return
    expect(catalog.catalog.agents.map((a) => a.name)).toEqual(expect.arrayContaining(['build', 'plan']))
    expect(catalog.catalog.models).toContainEqual(expect.objectContaining({ providerID: 'mock', id: 'scripted' }))

    await expect(caller.conversation.images({ directory: dir, mode: 'new', agent: 'no-such-agent' })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await expect(caller.conversation.images({ directory: dir, mode: 'new', model: { providerID: 'mock', id: 'nope' } })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    expect(marked(dir)).toHaveLength(0)

    const created = await caller.conversation.images({ directory: dir, mode: 'new', title: 'Design board', agent: 'plan', model: { providerID: 'mock', id: 'scripted' } })
    expect(created).toMatchObject({ status: 'created', session: { title: 'Design board', agent: 'plan' } })
    if (created.status !== 'created') return
    const info = await opencode.api('GET', `/session/${created.session.id}`, { directory: dir })
    expect(info).toMatchObject({ title: 'Design board', agent: 'plan', model: { providerID: 'mock', id: 'scripted' }, metadata: MARKER })
    const found = await caller.conversation.images({ directory: dir, mode: 'open', title: 'Ignored', agent: 'build' })
    expect(found).toMatchObject({ status: 'found', session: { id: created.session.id, title: 'Design board', agent: 'plan' } })
  })

  it('refuses an OpenCode server that uses another database, creating nothing in either', async () => {
    const other = await loupeWithOpenCode({ password: 'correct horse' })
    try {
      const here = await location()
      const there = await location(other.opencode)
      // The other server has the password; Loupe pointed at it from this database:
      deps.opencodeClient = createOpenCodeClient({ url: other.opencode.url, username: null, password: 'correct horse' })
      const answer = await caller.conversation.images({ directory: here.dir, mode: 'open' })
      expect(answer).toMatchObject({ status: 'blocked', blocked: 'unavailable', reason: expect.stringContaining('another database') })
      expect(marked(here.dir)).toHaveLength(0)
      expect(marked(here.dir, other.deps)).toHaveLength(0)

      // Its own Loupe: a wrong or missing password is refused, the right one works.
      other.useServer('wrong')
      expect(await other.caller.conversation.images({ directory: there.dir, mode: 'open' })).toMatchObject({ status: 'blocked', reason: expect.stringContaining('credentials') })
      other.useServer(null)
      expect(await other.caller.conversation.images({ directory: there.dir, mode: 'open' })).toMatchObject({ status: 'blocked', hint: expect.stringContaining('OPENCODE_SERVER_PASSWORD') })
      expect(marked(there.dir, other.deps)).toHaveLength(0)
      other.useServer('correct horse')
      expect(await other.caller.conversation.images({ directory: there.dir, mode: 'open' })).toMatchObject({ status: 'created' })
      expect(marked(there.dir, other.deps)).toHaveLength(1)
    } finally {
      deps.opencodeClient = createOpenCodeClient({ url: opencode.url, username: null, password: null, timeouts: { workMs: 30_000 } })
      await other.opencode.stop()
      other.deps.cleanup()
    }
  })

  // Last: it stops the server.
  it('with OpenCode stopped, open still finds an existing conversation but creates nothing: unavailable', async () => {
    const withOne = await location()
    const without = await location()
    expect(await caller.conversation.images({ directory: withOne.dir, mode: 'open' })).toMatchObject({ status: 'created' })
    await opencode.stop()
    expect(await caller.conversation.images({ directory: withOne.dir, mode: 'open' })).toMatchObject({ status: 'found' })
    for (const mode of ['open', 'new'] as const) {
      const answer = await caller.conversation.images({ directory: without.dir, mode })
      expect(answer).toMatchObject({ status: 'blocked', blocked: 'unavailable', reason: expect.stringContaining('No OpenCode server answered'), hint: expect.stringContaining('opencode serve') })
    }
    expect(await caller.conversation.catalog({ directory: without.dir })).toMatchObject({ status: 'blocked' })
    expect(marked(without.dir)).toHaveLength(0)
    expect(marked(withOne.dir)).toHaveLength(1)
  })
})
