import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiClient, ensureOpencode, isolatedEnv, startOpencode, writeConfig } from '../../../../../tools/opencode-real/generate.mjs'
import { createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { opencodeRealCache } from '../../../test/search-fixtures.js'

// mock-model.mjs and scenarios.mjs have no type declarations: these are the parts this test uses.
interface Mock {
  ScriptRegistry: new () => { add(entry: unknown): void }
  startMockModel(o: { registry: unknown }): Promise<{ url: string; close(): Promise<void> }>
}
interface Scenarios {
  createProject(dir: string, seed?: number): void
}
const tool = (file: string) => new URL(`../../../../../tools/opencode-real/${file}`, import.meta.url).href

const PROMPT = 'Which tuning does the xylophone module use?'
const ANSWER = 'The xylophone module uses the zanzibar7781 tuning table.'

describe('search follows a real OpenCode writing a new turn', () => {
  let deps: TestDeps
  let work: string
  let stopAll: () => Promise<void> = async () => {}
  let opencode: { url: string }
  let directory: string

  beforeAll(async () => {
    deps = await createTestDeps((await realFixture()).db, {}, { searchIndex: 'worker' })
    const mock = (await import(tool('mock-model.mjs'))) as Mock
    const scenarios = (await import(tool('scenarios.mjs'))) as Scenarios
    work = tempDir('loupe-oc-')
    directory = path.join(work, 'project')
    scenarios.createProject(directory)
    const registry = new mock.ScriptRegistry()
    registry.add({ prompt: PROMPT, title: 'Xylophone tuning', turns: [{ text: ANSWER }] })
    const model = await mock.startMockModel({ registry })
    const configPath = path.join(work, 'config', 'opencode', 'opencode.json')
    writeConfig(configPath, model.url)
    const env = { ...isolatedEnv(path.join(work, 'env'), configPath), OPENCODE_DB: deps.opencode.path }
    const bin = ensureOpencode({ cache: opencodeRealCache(), version: '1.18.33' })
    const server = await startOpencode({ bin, env, cwd: directory, logFile: path.join(work, 'opencode.log') })
    opencode = server
    stopAll = async () => {
      await server.stop()
      await model.close()
    }
  }, 180_000)

  afterAll(async () => {
    await stopAll()
    await deps.searchIndex.close()
    deps.cleanup()
    fs.rmSync(work, { recursive: true, force: true })
  })

  it('finds the new turn shortly after OpenCode commits it', async () => {
    const caller = createCaller({ deps })
    for (let i = 0; i < 400 && deps.searchIndex.status().state !== 'ready'; i++) await new Promise((r) => setTimeout(r, 50))
    expect(deps.searchIndex.status().state).toBe('ready')
    expect((await caller.history.search({ query: 'zanzibar7781' })).hits).toHaveLength(0)

    const api = apiClient(opencode.url)
    const session = await api.post('/session', {}, { directory })
    const reply = await api.post(`/session/${session.id}/message`, { parts: [{ type: 'text', text: PROMPT }] }, { directory, timeoutMs: 60_000 })
    const committed = performance.now()
    let hits: Awaited<ReturnType<typeof caller.history.search>>['hits'] = []
    for (let i = 0; i < 200 && hits.length === 0; i++) {
      hits = (await caller.history.search({ query: '7781' })).hits
      if (!hits.length) await new Promise((r) => setTimeout(r, 25))
    }
    const latency = performance.now() - committed
    console.info(`[search] new OpenCode turn searchable ${latency.toFixed(0)} ms after the prompt returned`)
    expect(hits.map((h) => [h.sessionID, h.messageID, h.kind])).toEqual([[session.id, reply.info.id, 'text']])
    expect(hits[0]!.snippet.some((s) => s.match && s.text === 'zanzibar7781')).toBe(true)
    const user = await caller.history.search({ query: 'xylophone', sessionID: session.id, kinds: ['user'] })
    expect(user.hits).toHaveLength(1)
  }, 60_000)
})
