import { computeRevision, decodeTarget, LIMITS, type NativeMessage, type StorageGeneration } from '@loupe/domain'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildV2Fixture } from '../../test/fixtures/v2-fixture.js'
import { createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../test/harness.js'
import { diffSnapshots, snapshotDb } from '../../test/fixtures/pruning/db-snapshot.js'
import { collectPruned, readMessage, withRaw } from '../../test/fixtures/pruning/prune-helpers.js'

type Json = Record<string, any>
type Caller = ReturnType<typeof createCaller>

/** What a generation must hold, from outside Loupe: OpenCode's own export, or the fixture's manifest. */
interface ExpectedSession {
  id: string
  /** Each message's id and its read form (1.x `{info, parts}`, 2.x the row's JSON), in transcript order. */
  messages: { id: string; view: unknown }[]
}

interface ContractCase {
  name: string
  storage: StorageGeneration
  /** The database each test's deps copy, and the sessions of this generation it holds (archived ones left out). */
  open(): Promise<{ file: string; sessions: ExpectedSession[] }>
}

const readJsonDir = (dir: string): Json[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Json) : []

const viewOf = (m: NativeMessage): unknown => (m.storage === 'v1' ? { info: m.info, parts: m.parts } : m.message)

const CASES: ContractCase[] = [
  {
    name: '1.x, written by real OpenCode 1.18.33',
    storage: 'v1',
    async open() {
      const fixture = await realFixture()
      const sessions = readJsonDir(fixture.sessionsDir).map((e) => ({
        id: e.info.id as string,
        messages: (e.messages as Json[]).map((m) => ({ id: m.info.id as string, view: m })),
      }))
      return { file: fixture.db, sessions }
    },
  },
  {
    name: "2.x, 1.18's experimental rows written by real OpenCode",
    storage: 'v2',
    async open() {
      const fixture = await realFixture()
      const sessions = readJsonDir(fixture.sessionsV2Dir).map((e) => ({
        id: e.info.id as string,
        messages: (e.messages as Json[]).map((m) => ({ id: m.id as string, view: m })),
      }))
      return { file: fixture.db, sessions }
    },
  },
  ...(['fresh', 'upgraded'] as const).flatMap((variant) => (['july', 'current'] as const).map((shape): ContractCase => ({
    name: `2.x, built from the published schema (${variant} file, ${shape} shapes)`,
    storage: 'v2',
    async open() {
      const manifest = buildV2Fixture(path.join(tempDir('loupe-contract-'), 'opencode.db'), { variant, shape })
      const sessions = manifest.sessions
        .filter((s) => s.storage === 'v2' && s.timeArchived === null)
        .map((s) => ({ id: s.id, messages: s.messages.map((m) => ({ id: m.id as string, view: viewOf(m) })) }))
      return { file: manifest.file, sessions }
    },
  }))),
]

const IMAGE = /^image\/(png|jpeg|gif|webp|avif)$/
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** The images a message's read form holds, in part and file order: [source, digest of the URI]. */
function imagesOf(storage: StorageGeneration, view: unknown): [string, string][] {
  const out: [string, string][] = []
  if (storage === 'v1') {
    const { info, parts } = view as { info: Json; parts: Json[] }
    for (const p of parts) {
      if (info.role === 'user' && p.type === 'file' && IMAGE.test(p.mime)) out.push(['pasted', sha256(p.url)])
      if (info.role === 'assistant' && p.type === 'tool' && p.tool === 'read')
        for (const a of p.state?.attachments ?? []) if (IMAGE.test(a.mime)) out.push(['read', sha256(a.url)])
    }
    return out
  }
  const m = view as Json
  if (m.type === 'user') for (const f of m.files ?? []) if (IMAGE.test(f.mime)) out.push(['pasted', sha256(f.uri ?? `data:${f.mime};base64,${f.data}`)])
  if (m.type === 'assistant')
    for (const c of m.content ?? []) if (c.type === 'tool' && c.name === 'read') for (const f of c.state?.content ?? []) if (f.type === 'file' && IMAGE.test(f.mime)) out.push(['read', sha256(f.uri)])
  return out
}

/** Rows of Loupe's prune receipts in the file, wherever the file keeps them (kv, or Loupe's own table). */
function receiptRows(deps: TestDeps): number {
  return withRaw(deps, (db) => {
    const has = (t: string) => db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(t) !== undefined
    const kv = has('kv') ? (db.prepare(`SELECT count(*) FROM kv WHERE key LIKE 'loupe:prune-receipt:%'`).pluck().get() as number) : 0
    const table = has('loupe_prune_receipt') ? (db.prepare(`SELECT count(*) FROM loupe_prune_receipt`).pluck().get() as number) : 0
    return kv + table
  })
}

/** Follow a transcript's cursors from one end to the other, with pages of `limit` messages. */
async function walkTranscript(caller: Caller, sessionID: string, storage: StorageGeneration, from: 'latest' | 'earliest', limit: number) {
  let page = await caller.sessions.messages({ sessionID, storage, anchor: from, limit })
  const pages = [page.messages]
  for (let guard = 0; guard < 500; guard++) {
    const next = from === 'latest' ? page.older : page.newer
    if (!next) break
    page = await caller.sessions.messages({ sessionID, storage, cursor: next, limit })
    if (from === 'latest') pages.unshift(page.messages)
    else pages.push(page.messages)
  }
  return { messages: pages.flat(), total: page.total }
}

describe.each(CASES)('the store contract: $name', ({ storage, open }) => {
  let deps: TestDeps
  let caller: Caller
  let sessions: ExpectedSession[]

  beforeAll(async () => {
    const opened = await open()
    sessions = opened.sessions
    deps = await createTestDeps(opened.file)
    caller = createCaller({ deps })
    expect(deps.opencode.stores.byGeneration[storage]).toBeDefined()
    expect(sessions.length).toBeGreaterThan(0)
  })
  afterAll(() => deps?.cleanup())

  it('lists every session of the generation exactly once, newest first, across pages of two', async () => {
    const seen = []
    let page = await caller.sessions.list({ limit: 2 })
    seen.push(...page.sessions)
    for (let guard = 0; page.cursor && guard < 500; guard++) {
      page = await caller.sessions.list({ limit: 2, cursor: page.cursor })
      expect(page.sessions.length).toBeLessThanOrEqual(2)
      seen.push(...page.sessions)
    }
    const keys = seen.map((s) => `${s.storage}:${s.id}`)
    expect(new Set(keys).size).toBe(keys.length)
    expect(seen.filter((s) => s.storage === storage).map((s) => s.id).sort()).toEqual(sessions.map((s) => s.id).sort())
    const times = seen.map((s) => s.timeUpdated)
    expect([...times].sort((a, b) => b - a)).toEqual(times)
    const one = await caller.sessions.list({ limit: LIMITS.pageSizeMax })
    expect(one.sessions.map((s) => `${s.storage}:${s.id}`)).toEqual(keys)
    for (const s of sessions) {
      const { session } = await caller.sessions.get({ sessionID: s.id, storage })
      expect(session.stats.messages, s.id).toBe(s.messages.length)
    }
  })

  it('pages a transcript both ways and around a message, in transcript order and in its read form', async () => {
    const longest = sessions.reduce((a, b) => (b.messages.length > a.messages.length ? b : a))
    expect(longest.messages.length).toBeGreaterThan(4)
    const ids = longest.messages.map((m) => m.id)
    for (const from of ['latest', 'earliest'] as const) {
      const walked = await walkTranscript(caller, longest.id, storage, from, 3)
      expect(walked.messages.map((m) => m.id), from).toEqual(ids)
      expect(walked.total).toBe(ids.length)
      expect(walked.messages.map(viewOf)).toEqual(longest.messages.map((m) => m.view))
    }
    const middle = ids[Math.floor(ids.length / 2)]!
    const around = await caller.sessions.messages({ sessionID: longest.id, storage, around: middle, limit: 4 })
    const start = ids.indexOf(around.messages[0]!.id)
    expect(around.messages.map((m) => m.id)).toEqual(ids.slice(start, start + around.messages.length))
    expect(around.messages.map((m) => m.id)).toContain(middle)
    expect(around.older !== null).toBe(start > 0)
    expect(around.newer !== null).toBe(start + around.messages.length < ids.length)
    await expect(caller.sessions.messages({ sessionID: longest.id, storage, around: 'msg_notinthissession' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it("lists each session's images newest first, exactly those its read form holds", async () => {
    let total = 0
    for (const s of sessions) {
      const expected = [...s.messages].reverse().flatMap((m) => imagesOf(storage, m.view))
      const listed: [string, string][] = []
      let cursor: string | undefined
      for (let guard = 0; guard < 50; guard++) {
        const page = await caller.gallery.images({ sessionID: s.id, storage, ...(cursor ? { cursor } : {}) })
        if (page.status !== 'page') throw new Error(JSON.stringify(page))
        for (const e of page.entries) {
          if (e.kind !== 'image') continue
          const target = decodeTarget(e.target)
          listed.push([e.source, target.ok ? target.value.digest : ''])
        }
        if (!page.cursor) break
        cursor = page.cursor
      }
      expect(listed, s.id).toEqual(expected)
      total += listed.length
    }
    expect(total).toBeGreaterThan(0)
  })

  // Last: it writes to this suite's copy.
  it('prunes one part with a receipt in the same file; an identical retry answers that receipt and writes nothing; a stale revision is a conflict', async () => {
    const planned = []
    for (const s of sessions) planned.push(await caller.pruning.sessionPlan({ sessionID: s.id, storage }))
    const plan = planned.find((p) => p.block === null && p.candidates.length > 0)
    expect(plan).toBeDefined()
    const candidate = plan!.candidates[0]!
    const request = { sessionID: plan!.sessionID, storage, messageID: candidate.messageID }
    const before = await readMessage(caller, request.sessionID, request.messageID, storage)
    const preview = await caller.pruning.preview(request)
    if (preview.status !== 'preview') throw new Error(JSON.stringify(preview))
    expect(preview.revision).toBe(before.revision)
    expect(preview.parts.length).toBeGreaterThan(1)
    const [first, second] = preview.parts
    const receiptsBefore = receiptRows(deps)

    const { value: receipt, events } = await collectPruned(deps, () => caller.pruning.prune({ ...request, revision: before.revision, indexes: [first!.index] }))
    const after = await readMessage(caller, request.sessionID, request.messageID, storage)
    expect(receipt).toEqual({ status: 'pruned', messageID: request.messageID, revision: after.revision, removedCount: 1 })
    expect(after.revision).toBe(computeRevision(after.content))
    expect(after.content).toEqual(before.content.filter((_, i) => i !== first!.index))
    expect(events).toEqual([{ sessionID: request.sessionID, messageID: request.messageID, revision: after.revision, storage }])
    expect(receiptRows(deps)).toBe(receiptsBefore + 1)
    const notes = await caller.sessions.pruneNotes({ sessionID: request.sessionID, storage, messageIDs: [request.messageID] })
    expect(notes.notes).toEqual([expect.objectContaining({ messageID: request.messageID, parts: 1 })])

    const snapshot = snapshotDb(deps.opencode.path)
    const retry = await collectPruned(deps, () => caller.pruning.prune({ ...request, revision: before.revision, indexes: [first!.index] }))
    expect(retry.value).toEqual(receipt)
    expect(retry.events).toHaveLength(1)
    const stale = await caller.pruning.prune({ ...request, revision: before.revision, indexes: [second!.index] })
    expect(stale).toMatchObject({ status: 'blocked', reason: 'conflict' })
    expect(diffSnapshots(snapshot, snapshotDb(deps.opencode.path))).toEqual({ changed: [], added: [], removed: [] })
  })
})
