import { pruneReceiptKey } from '@loupe/domain'
import Database from 'better-sqlite3'
import fs from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { copyDb, createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { cloneSession } from '../../../test/fixtures/pruning/big-session.js'
import { fixtureIds } from '../../../test/fixtures/pruning/fixture-ids.js'
import { readMessage } from '../../../test/fixtures/pruning/prune-helpers.js'
import { startRunner, type RunnerProcess } from '../../../test/fixtures/pruning/runner-process.js'

let SESSION = ''
// Several Loupe processes on one file, no OpenCode: see prune-runner.ts for why the recency rule is off.
const NO_OPENCODE = { liveWindowMs: Number.NEGATIVE_INFINITY }
const TECHNICAL = /"type":"(tool|reasoning)"/

type Candidate = { messageID: string; revision: string }

describe('pruning under faults', () => {
  let real: string
  let deps: TestDeps | undefined
  const runners: RunnerProcess[] = []
  const dirs: string[] = []
  beforeAll(async () => {
    const fixture = await realFixture()
    real = fixture.db
    SESSION = fixtureIds(fixture.dir).tour
  })
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.kill('SIGKILL')
    deps?.cleanup()
    deps = undefined
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  })
  const dir = () => {
    const d = tempDir()
    dirs.push(d)
    return d
  }
  const runner = async (file: string) => {
    const r = await startRunner(file)
    runners.push(r)
    return r
  }

  it('two Loupe processes pruning one message at the same moment: exactly one wins', async () => {
    deps = await createTestDeps(real, NO_OPENCODE)
    const caller = createCaller({ deps })
    const [a, b] = await Promise.all([runner(deps.opencode.path), runner(deps.opencode.path)])
    const plan = await caller.pruning.sessionPlan({ sessionID: SESSION })
    const multi = plan.candidates.filter((c) => c.toolCount + c.reasoningCount >= 2)
    expect(multi.length).toBeGreaterThan(1)
    for (const candidate of multi) {
      const preview = await caller.pruning.preview({ sessionID: SESSION, messageID: candidate.messageID })
      if (preview.status !== 'preview') throw new Error(preview.detail)
      const [first, second] = preview.parts
      const request = (index: number) => ({ op: 'prune', input: { sessionID: SESSION, messageID: candidate.messageID, revision: preview.revision, indexes: [index] } })
      a.send(request(first!.index))
      b.send(request(second!.index))
      const results = (await Promise.all([a.next<{ result: { status: string; reason?: string } }>(), b.next<{ result: { status: string; reason?: string } }>()])).map((r) => r.result)
      expect(results.map((r) => r.status).sort()).toEqual(['blocked', 'pruned'])
      expect(results.find((r) => r.status === 'blocked')?.reason).toBe('conflict')
      const after = await readMessage(caller, SESSION, candidate.messageID, 'v1')
      expect(after.content.filter((p) => TECHNICAL.test(JSON.stringify(p)))).toHaveLength(preview.parts.length - 1)
    }
    // The identical request from both: both get the one receipt, written once.
    const last = (await caller.pruning.sessionPlan({ sessionID: SESSION })).candidates[0]!
    const same = { op: 'prune', input: { sessionID: SESSION, messageID: last.messageID, revision: last.revision, indexes: [(await caller.pruning.preview({ sessionID: SESSION, messageID: last.messageID }) as { parts: { index: number }[] }).parts[0]!.index] } }
    a.send(same)
    b.send(same)
    const [ra, rb] = await Promise.all([a.next<{ result: unknown }>(), b.next<{ result: unknown }>()])
    expect(ra.result).toMatchObject({ status: 'pruned' })
    expect(rb.result).toEqual(ra.result)
  })

  it('SIGKILL at random points of a 200-message batch: each message is pruned with its receipt or untouched; a retry completes', async () => {
    const file = copyDb(real, dir())
    cloneSession(file, SESSION, 50)
    deps = await createTestDeps(file, NO_OPENCODE)
    const shared = deps.opencode.path
    const caller = createCaller({ deps })
    const plan = await caller.pruning.sessionPlan({ sessionID: SESSION })
    const candidates: Candidate[] = plan.candidates.slice(0, 200).map((c) => ({ messageID: c.messageID, revision: c.revision }))
    expect(candidates).toHaveLength(200)
    const partsOf = (db: Database.Database, id: string) => db.prepare(`SELECT id, data FROM part WHERE message_id = ? ORDER BY id`).all(id) as { id: string; data: string }[]
    const original = new Map<string, { id: string; data: string }[]>()
    const raw = new Database(shared, { readonly: true })
    for (const c of candidates) original.set(c.messageID, partsOf(raw, c.messageID))
    raw.close()

    const check = () => {
      const db = new Database(shared, { readonly: true })
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
        const receipts = db.prepare(`SELECT name FROM sqlite_master WHERE name = 'loupe_prune_receipt'`).get()
          ? new Set(db.prepare(`SELECT key FROM loupe_prune_receipt`).pluck().all() as string[])
          : new Set<string>()
        let pruned = 0
        for (const c of candidates) {
          const before = original.get(c.messageID)!
          const now = partsOf(db, c.messageID)
          const key = pruneReceiptKey({ storage: 'v1', sessionID: SESSION, messageID: c.messageID, revision: c.revision, allTechnical: true })
          if (receipts.has(key)) {
            pruned++
            expect(now).toEqual(before.filter((p) => !TECHNICAL.test(p.data)))
          } else expect(now).toEqual(before)
        }
        const seqs = db.prepare(`SELECT seq FROM event WHERE aggregate_id = ? ORDER BY seq`).pluck().all(SESSION) as number[]
        expect(seqs).toEqual(seqs.map((_, i) => i))
        expect(db.prepare(`SELECT seq FROM event_sequence WHERE aggregate_id = ?`).pluck().get(SESSION)).toBe(seqs.length - 1)
        return pruned
      } finally {
        db.close()
      }
    }

    const counts: number[] = []
    for (let round = 0; round < 3; round++) {
      const r = await runner(shared)
      r.send({ op: 'batch', sessionID: SESSION, candidates })
      // Let a few slices commit (each round starts over: done messages answer with their receipts),
      // then kill at a random moment, usually inside a message's transaction.
      for (let slice = 0; slice < 2 + round * 3; slice++) await r.next()
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 25)))
      await r.kill('SIGKILL')
      counts.push(check())
    }
    expect(counts.at(-1)).toBeGreaterThan(0)
    expect(counts.at(-1)).toBeLessThan(200)

    const finisher = await runner(shared)
    finisher.send({ op: 'batch', sessionID: SESSION, candidates })
    const statuses: string[] = []
    for (;;) {
      const line = await finisher.next<{ done?: boolean; results?: Array<{ result: { status: string } }> }>()
      if (line.done) break
      statuses.push(...line.results!.map((x) => x.result.status))
    }
    expect(statuses).toEqual(candidates.map(() => 'pruned'))
    expect(check()).toBe(200)
    const db = new Database(shared, { readonly: true })
    const removals = db.prepare(`SELECT json_extract(data, '$.partID') AS id, count(*) AS n FROM event WHERE aggregate_id = ? AND type = 'message.part.removed.1' GROUP BY 1`).all(SESSION) as { id: string; n: number }[]
    db.close()
    const technicalParts = [...original.values()].flat().filter((p) => TECHNICAL.test(p.data))
    expect(removals).toHaveLength(technicalParts.length)
    expect(removals.every((r) => r.n === 1)).toBe(true)
  }, 180_000)
})
