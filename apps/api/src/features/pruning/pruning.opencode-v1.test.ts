import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { createProject, startScriptedOpencode, type ScriptedOpencode } from '../../../test/scripted-opencode.js'
import { countInFiles, newMarker, waitFor } from '../../../test/fixtures/pruning/markers.js'

type Message = { info: { id: string; role: string }; parts: Array<{ id: string; type: string; callID?: string }> }

const idle = (oc: ScriptedOpencode, directory: string) =>
  waitFor(async () => Object.values(await oc.get<Record<string, { type: string }>>('/session/status', directory)).every((s) => s.type === 'idle'), 30_000, 'idle')

describe('a prune as the real OpenCode 1.18.33 sees it', () => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  let work: string
  let project: string
  const marker = newMarker('OUTPUT')
  const reasoningMarker = newMarker('REASONING')
  // The index folds and splits text: the marker's random part is what it stores as one token.
  const markerToken = marker.split('-').at(-1)!

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
    work = tempDir('loupe-oc-')
    project = path.join(work, 'project')
    await createProject(project, 7)
    fs.writeFileSync(path.join(project, 'incident.log'), Array.from({ length: 40 }, (_, i) => `entry ${i} ok ${marker}`).join('\n') + '\n')
  })
  afterAll(() => {
    deps.cleanup()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('lists the pruned history, omits it from the next model request, replays to the same state, and loses the bytes on reclaim', async () => {
    const file = deps.opencode.path
    const first = 'Check the incident log for anything unusual.'
    const second = 'Thanks. Is there anything else to check?'
    const oc = await startScriptedOpencode({ db: file, work: path.join(work, 'oc'), cwd: project })
    let sessionID = ''
    let removed: Message['parts'] = []
    let finalView: Message[] = []
    let events: Array<{ id: string; aggregate_id: string; seq: number; type: string; data: string }> = []
    try {
      oc.script({
        prompt: first,
        title: 'Incident log check',
        turns: [
          {
            reasoning: `Let me read the log before answering. ${reasoningMarker}`,
            text: 'Reading the incident log.',
            tools: [
              { name: 'read', input: { filePath: `${project}/incident.log` } },
              { name: 'bash', input: { command: 'head -n 3 incident.log', description: 'Show the first entries' } },
            ],
          },
          { text: 'The log only repeats routine entries.' },
        ],
      })
      oc.script({ prompt: second, turns: [{ text: 'No, that is all.' }] })
      sessionID = (await oc.post<{ id: string }>('/session', {}, project)).id
      await oc.post(`/session/${sessionID}/message`, { parts: [{ type: 'text', text: first }] }, project)
      await idle(oc, project)
      const total = countInFiles(file, marker)
      expect(total.db + total.wal).toBeGreaterThan(0)
      // Loupe's search index holds the output too (as tokens and in its content table).
      deps.searchIndex.runUntilIdle()
      const indexed = countInFiles(deps.searchIndex.file!, markerToken)
      expect(indexed.db + indexed.wal).toBeGreaterThan(0)

      const before = await oc.get<Message[]>(`/session/${sessionID}/message`, project)
      const target = before.find((m) => m.parts.some((p) => p.type === 'tool'))!
      const preview = await caller.pruning.preview({ sessionID, messageID: target.info.id })
      if (preview.status !== 'preview') throw new Error(`preview blocked: ${preview.detail}`)
      expect(preview.parts.map((p) => [p.type, p.tool ?? null])).toEqual([['reasoning', null], ['tool', 'read'], ['tool', 'bash']])
      const indexes = preview.parts.map((p) => p.index)
      removed = indexes.map((i) => target.parts[i]!)
      const result = await caller.pruning.prune({ sessionID, messageID: target.info.id, revision: preview.revision, indexes })
      expect(result).toMatchObject({ status: 'pruned', removedCount: 3 })

      // The live server reads the pruned rows: the same JSON, minus exactly the removed parts.
      const after = await oc.get<Message[]>(`/session/${sessionID}/message`, project)
      const gone = new Set(removed.map((p) => p.id))
      const expected = before.map((m) => ({ ...m, parts: m.parts.filter((p) => !gone.has(p.id)) }))
      expect(JSON.stringify(after)).toBe(JSON.stringify(expected))

      // The next model request carries the conversation, but nothing of the pruned calls or reasoning.
      await oc.post(`/session/${sessionID}/message`, { parts: [{ type: 'text', text: second }] }, project)
      await idle(oc, project)
      const request = oc.requests.filter((r) => r.kind === 'script').at(-1)!
      const sent = JSON.stringify(request.body)
      expect(sent).toContain(first)
      expect(sent).toContain('The log only repeats routine entries.')
      for (const gone of [marker, reasoningMarker, ...removed.flatMap((p) => (p.callID ? [p.callID] : []))]) expect(sent).not.toContain(gone)
      expect(request.body.messages.map((m) => m.role)).not.toContain('tool')

      finalView = await oc.get<Message[]>(`/session/${sessionID}/message`, project)
      const raw = new Database(file, { readonly: true })
      events = raw.prepare(`SELECT id, aggregate_id, seq, type, data FROM event WHERE aggregate_id = ? ORDER BY seq`).all(sessionID) as typeof events
      raw.close()
    } finally {
      await oc.stop()
    }

    // A fresh OpenCode that replays the edited log rebuilds exactly the pruned session.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i))
    const fresh = await startScriptedOpencode({ db: path.join(work, 'fresh.db'), work: path.join(work, 'oc-fresh'), cwd: project })
    try {
      const body = { directory: project, events: events.map((e) => ({ id: e.id, aggregateID: e.aggregate_id, seq: e.seq, type: e.type, data: JSON.parse(e.data) })) }
      expect(await fresh.post('/sync/replay', body, project)).toEqual({ sessionID })
      const replayed = await fresh.get<Message[]>(`/session/${sessionID}/message`, project)
      expect(replayed).toEqual(finalView)
      const replayedIds = new Set(replayed.flatMap((m) => m.parts.map((p) => p.id)))
      expect(removed.filter((p) => replayedIds.has(p.id))).toEqual([])
    } finally {
      await fresh.stop()
    }

    // Reclaim space (without keeping a backup): afterwards neither the file nor its WAL holds a
    // byte of the pruned content.
    expect(await caller.storage.reclaim({ confirm: 'reclaim', keepBackup: false })).toEqual({ status: 'started' })
    await deps.storage.reclaim.settled()
    const status = await caller.storage.reclaimStatus()
    expect(status.state).toMatchObject({ state: 'finished', result: { status: 'done', backup: null, after: { wal: 0 } } })
    expect(countInFiles(file, marker)).toEqual({ db: 0, wal: 0 })
    expect(countInFiles(file, reasoningMarker)).toEqual({ db: 0, wal: 0 })
    // ... and neither does the search sidecar, built afresh over the swapped file; the rest of
    // the history is still found.
    deps.searchIndex.runUntilIdle()
    expect(countInFiles(deps.searchIndex.file!, markerToken)).toEqual({ db: 0, wal: 0 })
    expect(countInFiles(deps.searchIndex.file!, reasoningMarker.split('-').at(-1)!)).toEqual({ db: 0, wal: 0 })
    expect((await caller.history.search({ query: 'routine entries' })).hits.map((h) => h.sessionID)).toContain(sessionID)
    expect((await caller.history.search({ query: markerToken })).hits).toEqual([])
    expect(deps.opencode.db.raw.pragma('integrity_check', { simple: true })).toBe('ok')
  }, 240_000)
})
