import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { StorageGeneration } from '@loupe/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildV2Fixture, type V2FixtureManifest, type V2Shape, type V2Variant } from '../../test/fixtures/v2-fixture.js'
import type { AppDeps } from '../deps.js'
import { listSessions } from '../features/sessions/sessions.service.js'
import { openOpenCode, type OpenCodeHandle } from './open-opencode.js'
import type { OpenCodeStore, SessionRecord } from './store.js'

const all = { includeArchived: true, rootsOnly: false, limit: 10_000 }
const key = (s: { storage: StorageGeneration; id: string }) => `${s.storage}:${s.id}`

function storeOf(handle: OpenCodeHandle, generation: StorageGeneration): OpenCodeStore {
  const store = handle.stores.byGeneration[generation]
  if (!store) throw new Error(`no ${generation} store`)
  return store
}

/** Every message of a session in transcript order, read the way the messages service pages them. */
function readTranscript(handle: OpenCodeHandle, store: OpenCodeStore, sessionID: string) {
  const ids = store.messageSlots(handle.db, sessionID, { kind: 'earliest' }, 10_000).map((slot) => slot.key.id)
  return store.loadMessages(handle.db, sessionID, ids)
}

const CASES = (['fresh', 'upgraded'] as const).flatMap((variant) => (['july', 'current'] as const).map((shape) => ({ variant: variant as V2Variant, shape: shape as V2Shape })))

describe.each(CASES)('createOpenCodeV2Store on a $variant 2.x database ($shape shapes)', ({ variant, shape }) => {
  let dir: string
  let manifest: V2FixtureManifest
  let handle: OpenCodeHandle

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `loupe-v2-${variant}-`))
    manifest = buildV2Fixture(path.join(dir, 'opencode.db'), { variant, shape })
    handle = openOpenCode(manifest.file)
  })
  afterAll(() => {
    handle?.db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('probes the generations the variant holds, readable and writable', () => {
    expect(handle.layout.generations.map((g) => g.generation)).toEqual(variant === 'fresh' ? ['v2'] : ['v1', 'v2'])
    expect(handle.layout).toMatchObject({ readable: true, writable: true, kv: true, eventLog: true, tablePrefix: null, problems: [] })
    expect(handle.layout.migrations).toEqual({ count: manifest.migrations.length, last: [...manifest.migrations].sort().at(-1), unknown: [] })
  })

  it('lists exactly the sessions of the manifest, each with its storage', () => {
    const listed = handle.stores.all.flatMap((store) => store.listSessions(handle.db, all))
    expect(listed.map(key).sort()).toEqual(manifest.sessions.map(key).sort())
    for (const expected of manifest.sessions) {
      const found = listed.find((s) => key(s) === key(expected)) as SessionRecord
      expect(found).toMatchObject({
        title: expected.title ?? '', parentID: expected.parentID, projectID: expected.projectID, directory: expected.directory,
        timeArchived: expected.timeArchived, metadata: expected.metadata,
      })
    }
  })

  it('reads every message in its native form, in seq order, with seq gaps kept', () => {
    for (const expected of manifest.sessions) {
      const messages = readTranscript(handle, storeOf(handle, expected.storage), expected.id)
      expect(messages, `${expected.key} (${expected.storage})`).toEqual(expected.messages)
    }
    const main = manifest.sessions.find((s) => s.key === 'main')
    const seqs = main?.messages.map((m) => (m.storage === 'v2' ? m.seq : -1)) ?? []
    expect(seqs.some((seq, i) => i > 0 && seq - (seqs[i - 1] ?? 0) > 1)).toBe(true)
  })

  it('covers every 2.x row type and the image a read tool returned', () => {
    const types = new Set(manifest.sessions.filter((s) => s.storage === 'v2').flatMap((s) => s.messages.map((m) => (m.storage === 'v2' ? m.message.type : ''))))
    for (const type of ['user', 'assistant', 'system', 'synthetic', 'compaction', 'shell', 'model-switched', 'agent-switched']) expect(types).toContain(type)
    const main = readTranscript(handle, storeOf(handle, 'v2'), manifest.sessions.find((s) => s.key === 'main')?.id ?? '')
    const items = main.flatMap((m) => (m.storage === 'v2' && Array.isArray(m.message.content) ? (m.message.content as Record<string, any>[]) : []))
    const read = items.find((c) => c.type === 'tool' && c.name === 'read')
    expect(read?.state.content).toContainEqual(expect.objectContaining({ type: 'file', mime: 'image/png', uri: expect.stringMatching(/^data:image\/png;base64,iVBOR/) }))
    const userFiles = main.flatMap((m) => (m.storage === 'v2' && Array.isArray(m.message.files) ? m.message.files : []))
    expect(userFiles).toHaveLength(1)
  })

  it('finds the child session under its parent and the companion by its metadata', () => {
    const v2 = storeOf(handle, 'v2')
    const main = manifest.sessions.find((s) => s.key === 'main')
    const children = v2.listSessions(handle.db, { ...all, parentID: main?.id })
    expect(children.map((c) => c.id)).toEqual([manifest.sessions.find((s) => s.key === 'child')?.id])
    const roots = v2.listSessions(handle.db, { ...all, rootsOnly: true }).map((s) => s.id)
    expect(roots).not.toContain(children[0]?.id)
    const companion = v2.getSession(handle.db, manifest.sessions.find((s) => s.key === 'companion')?.id ?? '')
    expect(companion?.metadata).toEqual({ 'codenomad.companion': 'images' })
    expect(v2.listSessions(handle.db, { ...all, includeArchived: false }).some((s) => s.timeArchived !== null)).toBe(false)
  })

  it('counts stats and event bytes per session', () => {
    const v2 = storeOf(handle, 'v2')
    const sessions = manifest.sessions.filter((s) => s.storage === 'v2')
    const stats = v2.sessionStats(handle.db, sessions.map((s) => s.id))
    for (const s of sessions) {
      expect(stats.get(s.id)?.messages).toBe(s.messages.length)
      expect((stats.get(s.id)?.bytes.events ?? 0) > 0).toBe(s.events > 0)
    }
  })
})

describe('createOpenCodeV2Store on an upgraded file with sessions in both generations', () => {
  let dir: string
  let manifest: V2FixtureManifest
  let handle: OpenCodeHandle
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-v2-dup-'))
    manifest = buildV2Fixture(path.join(dir, 'opencode.db'), { variant: 'upgraded', seed: 9 })
    handle = openOpenCode(manifest.file)
  })
  afterAll(() => {
    handle?.db.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('lists both copies of an imported session under one id, and keeps a diverged 1.x copy apart', () => {
    const imported = manifest.sessions.filter((s) => s.key === 'imported' || s.key === 'diverged')
    expect(imported.map((s) => s.storage).sort()).toEqual(['v1', 'v1', 'v2', 'v2'])
    for (const s of imported) {
      const found = storeOf(handle, s.storage).getSession(handle.db, s.id)
      expect(found).toMatchObject({ id: s.id, storage: s.storage })
    }
    const diverged = manifest.sessions.filter((s) => s.key === 'diverged')
    const [v1, v2] = [diverged.find((s) => s.storage === 'v1'), diverged.find((s) => s.storage === 'v2')]
    expect(v1?.id).toBe(v2?.id)
    const userTurns = (s: typeof v1) => s?.messages.filter((m) => (m.storage === 'v1' ? m.info.role === 'user' : m.message.type === 'user')).length ?? 0
    expect(userTurns(v1)).toBeGreaterThan(userTurns(v2))
  })

  it('reads imported sessions with contiguous seqs from 0 and no events, as 2.x leaves them (§9.9)', () => {
    for (const s of manifest.sessions.filter((x) => x.storage === 'v2' && (x.key === 'imported' || x.key === 'diverged'))) {
      const seqs = s.messages.map((m) => (m.storage === 'v2' ? m.seq : -1))
      expect(seqs).toEqual(seqs.map((_, i) => i))
      expect(s.lastSeq).toBe(seqs.length - 1)
      expect(handle.db.getSql<{ n: number }>('SELECT count(*) AS n FROM event WHERE aggregate_id = ?', [s.id])?.n).toBe(0)
      const last = s.messages.at(-1)
      expect(last?.storage === 'v2' && last.message.type).toBe('system')
    }
  })

  it('keeps the events a 1.x binary wrote after the upgrade for a session only it knows', () => {
    const only = manifest.sessions.filter((s) => s.key === 'v1-only')
    expect(only.map((s) => s.storage)).toEqual(['v1'])
    expect(storeOf(handle, 'v2').getSession(handle.db, only[0]?.id ?? '')).toBeUndefined()
    const stats = storeOf(handle, 'v1').sessionStats(handle.db, [only[0]?.id ?? ''])
    expect(stats.get(only[0]?.id ?? '')?.bytes.events).toBeGreaterThan(0)
  })
})

describe('an upgraded 2.x file through the sessions service', () => {
  it('pages through both generations, each copy of a shared id exactly once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-v2-pages-'))
    const manifest = buildV2Fixture(path.join(dir, 'opencode.db'), { variant: 'upgraded', seed: 4 })
    const handle = openOpenCode(manifest.file)
    try {
      // listSessions reads only the OpenCode handle of its deps.
      const deps = { opencode: handle } as Pick<AppDeps, 'opencode'> as AppDeps
      const seen: string[] = []
      let cursor: string | undefined
      for (let page = 0; page < 20; page++) {
        const answer = listSessions(deps, { includeArchived: true, limit: 2, ...(cursor ? { cursor } : {}) })
        seen.push(...answer.sessions.map(key))
        if (!answer.cursor) break
        cursor = answer.cursor
      }
      expect(seen.sort()).toEqual(manifest.sessions.map(key).sort())
    } finally {
      handle.db.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('buildV2Fixture fences', () => {
  it('sets the run-state a pruning tool must refuse, where Loupe reads it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-v2-fences-'))
    const revert = { messageID: 'msg_00000000000000000000000001' }
    const manifest = buildV2Fixture(path.join(dir, 'opencode.db'), {
      variant: 'fresh',
      fences: { main: { timeSuspended: 1_000, timeCompacting: 2_000, revert, workspaceID: 'wrk_remote', ownerID: 'wrk_remote' }, errors: { timeSuspended: 3_000 } },
    })
    const handle = openOpenCode(manifest.file)
    try {
      const v2 = storeOf(handle, 'v2')
      const main = manifest.sessions.find((s) => s.key === 'main')
      expect(v2.getSession(handle.db, main?.id ?? '')).toMatchObject({ timeSuspended: 1_000, timeCompacting: 2_000, revert, workspaceID: 'wrk_remote' })
      expect(handle.db.getSql('SELECT owner_id FROM event_sequence WHERE aggregate_id = ?', [main?.id])).toEqual({ owner_id: 'wrk_remote' })
      expect(v2.getSession(handle.db, manifest.sessions.find((s) => s.key === 'errors')?.id ?? '')).toMatchObject({ timeSuspended: 3_000, timeCompacting: null, revert: null })
      expect(v2.getSession(handle.db, manifest.sessions.find((s) => s.key === 'child')?.id ?? '')).toMatchObject({ timeSuspended: null, workspaceID: null })
      expect(main?.fences).toMatchObject({ ownerID: 'wrk_remote' })
    } finally {
      handle.db.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
