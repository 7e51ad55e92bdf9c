import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from '../../test/harness.js'
import { addV1Message, fixtureWithV1Session, textPart } from '../../test/search-fixtures.js'
import { CONNECTION_MEMORY } from '../lib/connection-memory.js'
import { createEventBus } from '../lib/event-bus.js'
import { openOpenCode } from '../store/open-opencode.js'
import { createSearchIndex, type SearchIndex } from './search-index.js'

async function until(check: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const matches = (index: SearchIndex, word: string) =>
  index.db!.getSql<{ n: number }>(`SELECT count(*) AS n FROM fts WHERE fts MATCH ?`, [word])!.n

describe('the indexing worker', () => {
  it('ends when the build is done; its follower indexes what OpenCode writes afterwards', async () => {
    const dir = tempDir()
    const { file, raw, time, sessionID } = await fixtureWithV1Session(dir, 'Worker hand-over')
    addV1Message(raw, { sessionID, role: 'assistant', time, parts: [textPart('built by the first worker: quokka')] })
    const opencode = openOpenCode(file)
    const index = createSearchIndex({ opencode, dataDir: path.join(dir, 'loupe'), events: createEventBus(), mode: 'worker', pollMs: 20 })
    try {
      const builder = index.indexerThreadId()
      expect(builder).not.toBeNull()
      expect(index.indexerRole()).toBe('indexBuild')
      await until(() => index.status().state === 'ready', 'the build')
      expect(matches(index, 'quokka')).toBe(1)
      await until(() => index.indexerThreadId() !== null && index.indexerThreadId() !== builder, 'a follower in the builder\'s place')
      // The follower gets the follower's (smaller) memory.
      expect(index.indexerRole()).toBe('indexFollow')

      addV1Message(raw, { sessionID, role: 'assistant', time: time + 1000, parts: [textPart('written after the build: wombat')] })
      await until(() => matches(index, 'wombat') === 1, 'the follower\'s catch-up')
      expect(index.status().state).toBe('ready')
    } finally {
      await index.close()
      raw.close()
      opencode.db.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('starts as a follower over a sidecar that is already built, and stays', async () => {
    const dir = tempDir()
    const { file, raw, time, sessionID } = await fixtureWithV1Session(dir, 'Already built')
    const opencode = openOpenCode(file)
    const options = { opencode, dataDir: path.join(dir, 'loupe'), events: createEventBus(), mode: 'worker' as const, pollMs: 20 }
    const first = createSearchIndex(options)
    await until(() => first.status().state === 'ready', 'the first build')
    await first.close()
    const second = createSearchIndex(options)
    try {
      const follower = second.indexerThreadId()
      expect(second.indexerRole()).toBe('indexFollow')
      addV1Message(raw, { sessionID, role: 'assistant', time: time + 1000, parts: [textPart('caught up by the follower: numbat')] })
      await until(() => matches(second, 'numbat') === 1, 'catch-up')
      expect(second.indexerThreadId()).toBe(follower)
    } finally {
      await second.close()
      raw.close()
      opencode.db.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('connection memory', () => {
  it('gives the server\'s connections the page cache and mmap of their role', async () => {
    const dir = tempDir()
    const { file, raw } = await fixtureWithV1Session(dir, 'Caches')
    raw.close()
    const opencode = openOpenCode(file)
    const index = createSearchIndex({ opencode, dataDir: path.join(dir, 'loupe'), events: createEventBus(), mode: 'manual' })
    try {
      const pragma = (db: { raw: { pragma(s: string, o: { simple: true }): unknown } }, name: string) => db.raw.pragma(name, { simple: true })
      expect(pragma(opencode.db, 'cache_size')).toBe(-CONNECTION_MEMORY.opencode.cacheKiB)
      expect(pragma(opencode.db, 'mmap_size')).toBe(CONNECTION_MEMORY.opencode.mmapBytes)
      expect(pragma(index.db!, 'cache_size')).toBe(-CONNECTION_MEMORY.indexSearch.cacheKiB)
      expect(pragma(index.db!, 'mmap_size')).toBe(CONNECTION_MEMORY.indexSearch.mmapBytes)
    } finally {
      await index.close()
      opencode.db.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
