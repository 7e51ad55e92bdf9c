import { TRPCError } from '@trpc/server'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, TEST_NOW, type TestDeps } from '../../../test/harness.js'
import { addV1Message, addV1Session, reasoningPart, textPart, toolPart } from '../../../test/search-fixtures.js'

const T = TEST_NOW - 86_400_000
const dump = (word: string) => Array.from({ length: 800 }, (_, i) => `line ${i}: ok status=${i % 7} path=/srv/app/file${i}.log`).join('\n') + `\n${word} appeared once\n`
const marked = (hit: { snippet: Array<{ text: string; match: boolean }> }) => hit.snippet.filter((s) => s.match).map((s) => s.text.toLowerCase())

describe('history.search over the index', () => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  let seeded: Record<string, string>

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
    const db = new Database(deps.opencode.path)
    const titled = addV1Session(db, { title: 'Zephyr deploy pipeline', time: T, directory: '/srv/zephyr', projectID: 'proj_zephyr' })
    const other = addV1Session(db, { title: 'Unrelated chores', time: T + 1000 })
    const u = addV1Message(db, { sessionID: other, role: 'user', time: T + 2000, parts: [textPart('Please check the zephyr logs')] })
    const a = addV1Message(db, {
      sessionID: other, role: 'assistant', time: T + 3000,
      parts: [
        reasoningPart('The login bug hides in the session refresh; merged PR1137 fixed half of it.'),
        textPart('We should rotate the credentials before the next release.'),
        toolPart('bash', { command: 'cat /var/log/app.log' }, dump('zephyr'), 'cat /var/log/app.log'),
        toolPart('read', { filePath: '/srv/app/bug.md' }, 'A bug in login: the token expires early.'),
      ],
    })
    const draft = addV1Message(db, { sessionID: other, role: 'assistant', time: T + 4000, parts: [textPart('Rotate the credentials in the draft plan too.')] })
    const cjk = addV1Message(db, { sessionID: other, role: 'assistant', time: T + 5000, parts: [textPart('設定ファイルを更新しました。')] })
    const paging = addV1Session(db, { title: 'Paging chores', time: T + 6000 })
    const answer = addV1Message(db, {
      sessionID: paging, role: 'assistant', time: T + 7000,
      parts: [
        toolPart('read', { filePath: '/srv/app/src/paging.ts' }, [
          'export function encodeQuillmark(row: Row): string {',
          '  return JSON.stringify([row.createdAt, row.id])',
          '}',
          'export function decodeQuillmark(quillmark: string): Row {',
          '  const nextQuillmark = JSON.parse(quillmark)',
          '  return nextQuillmark',
          '}',
        ].join('\n'), 'src/paging.ts'),
        textPart('The quillmark is the last row of the page; the next page starts strictly after it.'),
      ],
    })
    db.close()
    seeded = {
      titled, other, user: u.messageID, assistant: a.messageID, draft: draft.messageID, reasoning: a.partIDs[0]!, tool: a.partIDs[2]!, cjk: cjk.messageID,
      pagingRead: answer.partIDs[0]!, pagingText: answer.partIDs[1]!,
    }
    deps.searchIndex.runUntilIdle()
  })
  afterAll(() => deps.cleanup())

  it('answers from the index once it is ready', async () => {
    const answer = await caller.history.search({ query: 'zephyr' })
    expect(answer.mode).toBe('index')
    expect(answer.index.state).toBe('ready')
    // Each hit says where its session ran, which tells apart sessions of one title.
    expect(answer.hits.filter((h) => h.sessionTitle === 'Zephyr deploy pipeline').map((h) => h.sessionDirectory)).toContain('/srv/zephyr')
  })

  it('ranks a title hit and a text hit above a tool-output hit for the same word', async () => {
    const { hits } = await caller.history.search({ query: 'zephyr' })
    const order = hits.map((h) => h.kind)
    expect(order.slice(0, 2)).toEqual(['title', 'user'])
    expect(order.indexOf('tool')).toBeGreaterThan(1)
    expect(hits[0]).toMatchObject({ sessionID: seeded.titled, sessionTitle: 'Zephyr deploy pipeline', messageID: null })
    expect(hits[1]).toMatchObject({ sessionID: seeded.other, messageID: seeded.user, storage: 'v1' })
    const tool = hits.find((h) => h.kind === 'tool')!
    expect(tool).toMatchObject({ tool: 'bash', partID: seeded.tool, messageID: seeded.assistant })
    expect(marked(tool)).toEqual(['zephyr'])
    expect(hits[0]!.score).toBeGreaterThan(tool.score)
  })

  it('ranks prose that says a word above a tool output full of code tokens containing it', async () => {
    // The read output also matches encodeQuillmark, decodeQuillmark and nextQuillmark (substring
    // search); those alternatives must not outweigh the word itself in the assistant's answer.
    const { hits } = await caller.history.search({ query: 'quillmark' })
    expect(hits.map((h) => h.partID)).toEqual([seeded.pagingText, seeded.pagingRead])
    expect(hits.map((h) => h.kind)).toEqual(['text', 'tool'])
    expect(marked(hits[1]!)).toContain('encodequillmark')
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score)
  })

  it('matches an exact phrase only in order', async () => {
    const { hits } = await caller.history.search({ query: '"login bug"' })
    expect(hits.map((h) => h.partID)).toEqual([seeded.reasoning])
    expect(marked(hits[0]!)).toEqual(['login bug'])
    const loose = await caller.history.search({ query: 'login bug' })
    expect(loose.hits.length).toBeGreaterThan(1)
  })

  it('excludes documents with a -word', async () => {
    const all = await caller.history.search({ query: 'credentials' })
    expect(all.hits.map((h) => h.messageID).sort()).toEqual([seeded.assistant, seeded.draft].sort())
    const some = await caller.history.search({ query: 'credentials -draft' })
    expect(some.hits.map((h) => h.messageID)).toEqual([seeded.assistant])
    // An exclusion alone selects nothing, and the answer says why.
    expect(await caller.history.search({ query: '-draft' })).toMatchObject({ hits: [], notice: 'Add a word to look for: -word only leaves results out.' })
  })

  it('finds a prefix*', async () => {
    const { hits } = await caller.history.search({ query: 'credent*' })
    expect(hits.length).toBe(2)
  })

  it('finds a substring inside a code token (PR1137 by 1137) and highlights the token', async () => {
    const { hits } = await caller.history.search({ query: '1137' })
    expect(hits.map((h) => h.partID)).toEqual([seeded.reasoning])
    expect(marked(hits[0]!)).toEqual(['pr1137'])
  })

  it('lets a common word reach into code tokens when its whole-word matches are few', async () => {
    const db = new Database(deps.opencode.path)
    const session = addV1Session(db, { title: 'Gossamer proxy notes', time: T + 10_000 })
    for (let i = 0; i < 55; i++) addV1Message(db, { sessionID: session, role: 'assistant', time: T + 11_000 + i, parts: [textPart(`The gossamer proxy dropped request ${i}.`)] })
    const code = addV1Message(db, { sessionID: session, role: 'assistant', time: T + 12_000, parts: [toolPart('read', { filePath: '/srv/app/timer.ts' }, 'setGossamerTimer(() => flush(), 500)', 'src/timer.ts')] })
    db.close()
    deps.searchIndex.runUntilIdle()
    // Plenty of whole words: they alone answer, so prose is not buried under code tokens.
    const whole = await caller.history.search({ query: 'gossamer', limit: 100 })
    expect(whole.total).toBe(56) // 55 texts and the title
    // None left once `proxy` is excluded: the word is looked for inside code tokens, as a rare word is.
    const { hits, total } = await caller.history.search({ query: 'gossamer -proxy' })
    expect(total).toBe(1)
    expect(hits[0]).toMatchObject({ partID: code.partIDs[0], kind: 'tool' })
    expect(marked(hits[0]!)).toEqual(['setgossamertimer'])
    // The clean-up acts on what the results show.
    const plan = await caller.history.candidates({ query: 'gossamer -proxy' })
    expect(plan.sessions.flatMap((s) => s.candidates.map((c) => c.messageID))).toEqual([code.messageID])
  })

  it('lists the tools history holds calls of, custom ones included, with their counts', async () => {
    const db = new Database(deps.opencode.path)
    const session = addV1Session(db, { title: 'Custom tools', time: T + 20_000 })
    addV1Message(db, { sessionID: session, role: 'assistant', time: T + 21_000, parts: [toolPart('github_search', { q: 'ocelot' }, 'no results')] })
    db.close()
    deps.searchIndex.runUntilIdle()
    const { tools } = await caller.history.tools()
    // The same counts as the index's own document table.
    const counted = deps.searchIndex.db!.allSql<{ tool: string; n: number }>(`SELECT tool, count(*) AS n FROM doc WHERE tool IS NOT NULL GROUP BY tool`)
    expect(new Map(tools!.map((t) => [t.name, t.docs]))).toEqual(new Map(counted.map((c) => [c.tool, c.n])))
    expect(tools!.find((t) => t.name === 'github_search')).toEqual({ name: 'github_search', docs: 1 })
    expect(tools!.map((t) => t.docs)).toEqual([...tools!.map((t) => t.docs)].sort((a, b) => b - a))
    const fresh = await createTestDeps((await realFixture()).db)
    expect(await createCaller({ deps: fresh }).history.tools()).toEqual({ tools: null })
    fresh.cleanup()
  })

  it('finds a piece of Japanese text written without spaces', async () => {
    const { hits } = await caller.history.search({ query: 'ファイル' })
    expect(hits.map((h) => h.messageID)).toEqual([seeded.cjk])
    expect(hits[0]!.snippet.some((s) => s.match && s.text.includes('ファイル'))).toBe(true)
  })

  it('scopes by session, project, directory, kind, tool and time', async () => {
    const inSession = await caller.history.search({ query: 'zephyr', sessionID: seeded.other })
    expect(new Set(inSession.hits.map((h) => h.sessionID))).toEqual(new Set([seeded.other]))
    const inProject = await caller.history.search({ query: 'zephyr', projectID: 'proj_zephyr' })
    expect(inProject.hits.map((h) => h.sessionID)).toEqual([seeded.titled])
    const inDir = await caller.history.search({ query: 'zephyr', directory: '/srv/zephyr' })
    expect(inDir.hits.map((h) => h.kind)).toEqual(['title'])
    const tools = await caller.history.search({ query: 'zephyr', kinds: ['tool'] })
    expect(tools.hits.map((h) => h.kind)).toEqual(['tool'])
    const reads = await caller.history.search({ query: 'login', tool: 'read' })
    expect(reads.hits.map((h) => h.tool)).toEqual(['read'])
    const late = await caller.history.search({ query: 'credentials', since: T + 3500 })
    expect(late.hits.map((h) => h.messageID)).toEqual([seeded.draft])
    const early = await caller.history.search({ query: 'credentials', until: T + 3500 })
    expect(early.hits.map((h) => h.messageID)).toEqual([seeded.assistant])
  })

  it('refuses scopes that do not exist with not_found', async () => {
    for (const input of [{ sessionID: 'ses_nope' }, { projectID: 'nope' }, { directory: '/etc' }]) {
      await expect(caller.history.search({ query: 'zephyr', ...input })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    }
  })

  it.each([
    ['unbalanced quotes', '"zephyr'],
    ['NEAR and friends', 'NEAR(zephyr logs, 2) OR AND NOT'],
    ['a lone star', '*'],
    ['stars everywhere', 'ze*phyr **'],
    ['unbalanced parentheses', '((zephyr'],
    ['column syntax', 'title:zephyr {body}: x ^y'],
    ['control characters', 'zephyr\u0000\u0007\u001b[2J\u202e'],
    ['other scripts', 'Привет 日本語 مرحبا 🙂'],
    ['a 10 KB query', 'zephyr '.repeat(1500)],
    ['a 10 KB token', 'z'.repeat(10_240)],
    ['only an exclusion', '-zephyr'],
    ['empty', ''],
    ['sql', "zephyr'; DROP TABLE doc; --"],
  ])('answers hostile input (%s) without an error', async (_name, query) => {
    const answer = await caller.history.search({ query })
    expect(Array.isArray(answer.hits)).toBe(true)
    for (const hit of answer.hits) for (const s of hit.snippet) expect(s.text).not.toMatch(/[\uE000\uE001]/)
  })

  it('still finds the word when the query around it is hostile', async () => {
    const { hits } = await caller.history.search({ query: '"zephyr' })
    expect(hits.length).toBeGreaterThan(0)
  })

  it('refuses a cursor used with another query, and a malformed one', async () => {
    const first = await caller.history.search({ query: 'zephyr', limit: 1 })
    expect(first.cursor).toBeTruthy()
    await expect(caller.history.search({ query: 'credentials', cursor: first.cursor! })).rejects.toMatchObject({ code: 'CONFLICT' })
    await expect(caller.history.search({ query: 'zephyr', kinds: ['tool'], cursor: first.cursor! })).rejects.toMatchObject({ code: 'CONFLICT' })
    const bad = await caller.history.search({ query: 'zephyr', cursor: 'AAAA' }).catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(TRPCError)
    expect((bad as TRPCError).code).toBe('BAD_REQUEST')
  })
})
