import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { createProject, startScriptedOpencode, type ScriptedOpencode } from '../../../test/scripted-opencode.js'
import { countInFiles, newMarker, waitFor } from '../../../test/fixtures/pruning/markers.js'

type Item = { type: string; id?: string; text?: string; name?: string }
type V2Message = { id: string; type: string; content?: Item[]; time?: { completed?: number }; finish?: string }

async function messages(oc: ScriptedOpencode, sessionID: string): Promise<V2Message[]> {
  return (await oc.get<{ data: V2Message[] }>(`/api/session/${sessionID}/message?limit=100&order=asc`)).data
}

async function promptAndWait(oc: ScriptedOpencode, sessionID: string, text: string) {
  const admitted = await oc.post<{ data: { id: string } }>(`/api/session/${sessionID}/prompt`, { prompt: { text } })
  await waitFor(async () => {
    const active = (await oc.get<{ data: Record<string, unknown> }>('/api/session/active')).data
    if (active[sessionID]) return false
    const last = (await messages(oc, sessionID)).at(-1)
    return last?.type === 'assistant' && !!last.time?.completed && last.finish !== 'tool-calls' && last.id > admitted.data.id
  }, 60_000, 'the v2 prompt to finish')
}

describe('a prune of 2.x session_message rows as the real OpenCode (experimental 2.x engine) sees it', () => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  let work: string
  let project: string
  const marker = newMarker('V2OUT')
  const reasoningMarker = newMarker('V2REASON')

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db)
    caller = createCaller({ deps })
    work = tempDir('loupe-oc2-')
    project = path.join(work, 'project')
    await createProject(project, 8)
    fs.writeFileSync(path.join(project, 'incident.log'), Array.from({ length: 40 }, (_, i) => `entry ${i} ok ${marker}`).join('\n') + '\n')
  })
  afterAll(() => {
    deps.cleanup()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('lists the pruned content, keeps every event decodable, and omits it from the next request', async () => {
    const file = deps.opencode.path
    const first = 'Check the incident log for anything unusual (v2).'
    const second = 'Thanks. Anything else (v2)?'
    const oc = await startScriptedOpencode({ db: file, work: path.join(work, 'oc'), cwd: project, experimental: true })
    let sessionID = ''
    let finalView: V2Message[] = []
    let events: Array<{ id: string; aggregate_id: string; seq: number; type: string; data: string }> = []
    let removedIds: string[] = []
    try {
      oc.script({
        prompt: first,
        turns: [
          {
            reasoning: `Let me read the log before answering. ${reasoningMarker}`,
            text: 'Reading the incident log.',
            tools: [
              { name: 'read', input: { path: `${project}/incident.log` } },
              { name: 'bash', input: { command: 'head -n 3 incident.log', description: 'Show the first entries' } },
            ],
          },
          { text: 'The log only repeats routine entries.' },
        ],
      })
      oc.script({ prompt: second, turns: [{ text: 'No, that is all.' }] })
      sessionID = (await oc.post<{ data: { id: string } }>('/api/session', { location: { directory: project }, model: { id: 'scripted', providerID: 'mock' } })).data.id
      await promptAndWait(oc, sessionID, first)

      const before = await messages(oc, sessionID)
      const target = before.find((m) => m.content?.some((c) => c.type === 'tool'))!
      const preview = await caller.pruning.preview({ sessionID, storage: 'v2', messageID: target.id })
      if (preview.status !== 'preview') throw new Error(`preview blocked: ${preview.detail}`)
      expect(preview.parts.map((p) => [p.type, p.tool ?? null])).toEqual([['reasoning', null], ['tool', 'read'], ['tool', 'bash']])
      const indexes = preview.parts.map((p) => p.index)
      removedIds = indexes.map((i) => target.content![i]!.id!)
      expect(await caller.pruning.prune({ sessionID, storage: 'v2', messageID: target.id, revision: preview.revision, indexes })).toMatchObject({ status: 'pruned', removedCount: 3 })

      const after = await messages(oc, sessionID)
      const expected = before.map((m) => (m.id === target.id ? { ...m, content: m.content!.filter((_, i) => !indexes.includes(i)) } : m))
      expect(after).toEqual(expected)
      // OpenCode still decodes every event of the session after the in-place redaction.
      const stored = new Database(file, { readonly: true })
      const seqs = stored.prepare(`SELECT seq FROM event WHERE aggregate_id = ? AND type LIKE 'session.next.%' ORDER BY seq`).pluck().all(sessionID) as number[]
      stored.close()
      const streamed = await oc.sse(`/api/session/${sessionID}/event`, (e) => e.length >= seqs.length || e.some((x) => x.event.includes('failure')))
      expect(streamed.filter((x) => x.event.includes('failure'))).toEqual([])
      expect(streamed.map((x) => (JSON.parse(x.data) as { durable: { seq: number } }).durable.seq)).toEqual(seqs)
      expect(JSON.stringify(streamed)).not.toContain(marker)

      await promptAndWait(oc, sessionID, second)
      const request = oc.requests.filter((r) => r.kind === 'script').at(-1)!
      const sent = JSON.stringify(request.body)
      expect(sent).toContain(first)
      expect(sent).toContain('The log only repeats routine entries.')
      for (const gone of [marker, reasoningMarker, ...removedIds.filter((id) => id.startsWith('call_'))]) expect(sent).not.toContain(gone)

      finalView = await messages(oc, sessionID)
      const raw = new Database(file, { readonly: true })
      events = raw.prepare(`SELECT id, aggregate_id, seq, type, data FROM event WHERE aggregate_id = ? ORDER BY seq`).all(sessionID) as typeof events
      raw.close()
    } finally {
      await oc.stop()
    }
    expect(events.map((e) => e.data).join('\n')).not.toContain(marker)
    expect(events.map((e) => e.data).join('\n')).not.toContain(reasoningMarker)

    const fresh = await startScriptedOpencode({ db: path.join(work, 'fresh.db'), work: path.join(work, 'oc-fresh'), cwd: project, experimental: true })
    try {
      const body = { directory: project, events: events.map((e) => ({ id: e.id, aggregateID: e.aggregate_id, seq: e.seq, type: e.type, data: JSON.parse(e.data) })) }
      await fresh.post('/sync/replay', body, project)
      // 2.x has no content-removal event, so a replay recreates the pruned items as empty
      // placeholders (the redacted events carry no content); everything else replays exactly.
      const replayed = await messages(fresh, sessionID)
      const placeholders = replayed.flatMap((m) => m.content ?? []).filter((c) => c.id && removedIds.includes(c.id))
      expect(placeholders.map((p) => p.id).sort()).toEqual([...removedIds].sort())
      for (const p of placeholders as Array<Item & { state?: { input: unknown; content: unknown; structured: unknown } }>) {
        if (p.type === 'reasoning') expect(p.text).toBe('')
        else expect(p.state).toMatchObject({ input: {}, content: [{ type: 'text', text: '' }], structured: {} })
      }
      const withoutPlaceholders = replayed.map((m) => (m.content ? { ...m, content: m.content.filter((c) => !(c.id && removedIds.includes(c.id))) } : m))
      expect(withoutPlaceholders).toEqual(finalView)
      expect(JSON.stringify(replayed)).not.toContain(marker)
    } finally {
      await fresh.stop()
    }

    expect(await caller.storage.reclaim({ confirm: 'reclaim', keepBackup: false })).toEqual({ status: 'started' })
    await deps.storage.reclaim.settled()
    expect(countInFiles(file, marker)).toEqual({ db: 0, wal: 0 })
    expect(countInFiles(file, reasoningMarker)).toEqual({ db: 0, wal: 0 })
  }, 240_000)
})
