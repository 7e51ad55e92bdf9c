import type { NativeMessage } from '@loupe/domain'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildV2Fixture } from '../../../test/fixtures/v2-fixture.js'
import { indexedWords } from '../../../test/search-fixtures.js'
import { createCaller, createTestDeps, realFixture, tempDir, TEST_NOW, type TestDeps } from '../../../test/harness.js'
import { generateDemoDb } from '@loupe/demo'
import type { SearchHit } from './history-scope.js'

type Caller = ReturnType<typeof createCaller>
const key = (h: SearchHit) => `${h.storage}:${h.sessionID}:${h.messageID}:${h.partID ?? h.index ?? h.kind}`

async function everyHit(caller: Caller, query: string): Promise<SearchHit[]> {
  const hits: SearchHit[] = []
  let cursor: string | undefined
  for (let page = 0; page < 5000; page++) {
    const answer = await caller.history.search({ query, limit: 100, ...(cursor ? { cursor } : {}) })
    hits.push(...answer.hits)
    if (!answer.cursor) return hits
    cursor = answer.cursor
  }
  throw new Error('too many pages')
}

/** The text around a scan-only hit: the word must sit inside a longer token there. */
function insideLongerToken(hit: SearchHit): boolean {
  const i = hit.snippet.findIndex((s) => s.match)
  const before = hit.snippet[i - 1]?.text.at(-1) ?? ''
  const after = hit.snippet[i + 1]?.text[0] ?? ''
  return /[\p{L}\p{N}]/u.test(before) || /[\p{L}\p{N}]/u.test(after)
}

const sources: Array<[string, (dir: string) => Promise<string>]> = [
  ['the real OpenCode 1.18.33 fixture (with experimental 2.x rows)', async () => (await realFixture()).db],
  ['a fresh 2.x database', async (dir) => buildV2Fixture(path.join(dir, 'v2.db'), { variant: 'fresh' }).file],
  ['an upgraded 2.x database (both copies of imported sessions)', async (dir) => buildV2Fixture(path.join(dir, 'v2.db'), { variant: 'upgraded', seed: 3 }).file],
  ['a fresh 2.x database with current upstream shapes', async (dir) => buildV2Fixture(path.join(dir, 'v2.db'), { variant: 'fresh', shape: 'current' }).file],
  ['the demo generator', async (dir) => {
    const file = path.join(dir, 'demo.db')
    generateDemoDb(file, { now: TEST_NOW, sessions: 6, seed: 5 })
    return file
  }],
]

describe.each(sources)('index and literal scan agree on %s', (name, make) => {
  const dirs: string[] = []
  const all: TestDeps[] = []
  afterAll(() => {
    for (const d of all) d.cleanup()
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  })

  it('finds every whole-word match the scan finds, opens each at a real message and part, and nothing else', async () => {
    const dir = tempDir()
    dirs.push(dir)
    const db = await make(dir)
    const indexed = await createTestDeps(db)
    const scanning = await createTestDeps(db)
    all.push(indexed, scanning)
    indexed.searchIndex.runUntilIdle()
    const ranked = createCaller({ deps: indexed })
    const literal = createCaller({ deps: scanning })

    const index = indexed.searchIndex.db!
    const words = indexedWords(index, { docs: [1, 40], letters: [5, 12], limit: 12 })
    expect(words.length).toBeGreaterThan(5)
    const messages = new Map<string, NativeMessage>()
    for (const word of words) {
      const viaIndex = await everyHit(ranked, word)
      const viaScan = await everyHit(literal, word)
      expect(viaIndex.length, word).toBeGreaterThan(0)
      const scanKeys = new Set(viaScan.map(key))
      expect(viaIndex.map(key).filter((k) => !scanKeys.has(k)), word).toEqual([])
      const indexKeys = new Set(viaIndex.map(key))
      for (const hit of viaScan.filter((h) => !indexKeys.has(key(h)))) expect(insideLongerToken(hit), `${word} ${key(hit)}`).toBe(true)

      for (const hit of viaIndex.filter((h) => h.messageID)) {
        const id = `${hit.storage}:${hit.sessionID}:${hit.messageID}`
        let message = messages.get(id)
        if (!message) {
          message = await ranked.sessions.message({ sessionID: hit.sessionID, storage: hit.storage, messageID: hit.messageID! })
          messages.set(id, message)
        }
        if (hit.partID) expect(message.storage === 'v1' && message.parts.some((p) => p.id === hit.partID)).toBe(true)
        if (hit.index !== undefined) expect(message.storage === 'v2' && Array.isArray(message.message.content) && hit.index < message.message.content.length).toBe(true)
      }
    }
  }, 120_000)
})
