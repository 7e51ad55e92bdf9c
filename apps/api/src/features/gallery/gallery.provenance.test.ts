import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createCaller, createTestDeps, tempDir, type TestDeps } from '../../../test/harness.js'
import { dataUri, makePng } from '../../../test/fixtures/gallery/png.js'
import { createV1GalleryDb, v1GeneratePart, v1NoticePart, v1ReadPart } from '../../../test/fixtures/gallery/v1-gallery-db.js'
import { createV2GalleryDb, generateItem, readItem, type GenerateCall, type V2GalleryDb } from '../../../test/fixtures/gallery/v2-gallery-db.js'
import type { GalleryEntry, GenerationEntry, ImageEntry } from './gallery.schema.js'

/**
 * End-to-end provenance on 2.x fixtures built from the design's field list (no OpenCode release
 * writes `experimental_image_generate` yet). Each story is a session; each rule has one story that
 * proves and one that must not. The pure rules are covered case by case in @loupe/domain.
 */
const DIR = '/work/project'
const HERO = `${DIR}/out/hero.png`
const png = (seed: number) => dataUri(makePng(4, 4, seed))

type Story = (b: V2GalleryDb, sessionID: string) => void

const call = (over: Partial<GenerateCall> = {}): GenerateCall => ({
  id: 'call_gen_1',
  status: 'completed',
  prompt: 'A hero image of a lighthouse',
  path: 'out/hero',
  jobID: 'job-1',
  model: 'acme/img-2',
  ran: 100,
  completed: 110,
  ...over,
})

/** Generation in one row, its notice, then a read of the file it saved. */
const proven: Story = (b, s) => {
  b.user(s, { text: 'make a hero image', time: 50 })
  b.assistant(s, [generateItem(call())], { time: 90 })
  b.notice(s, { jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })
  b.assistant(s, [readItem('call_read_1', HERO, [png(1)], 200, 210)], { time: 190 })
}

const stories: Record<string, { story: Story; metadata?: Record<string, unknown>; parentID?: string }> = {
  proven: { story: proven },
  companion: { story: proven, metadata: { 'codenomad.companion': 'images' } },
  childCompanion: { story: proven, metadata: { 'codenomad.companion': 'images' }, parentID: 'ses_parent' },
  noNotice: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call())], { time: 90 })
      b.assistant(s, [readItem('call_read_1', HERO, [png(1)], 200, 210)], { time: 190 })
    },
  },
  retried: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call({ id: 'call_gen_0', jobID: 'job-0', ran: 40, completed: 45 }))], { time: 30 })
      b.notice(s, { jobID: 'job-0', state: 'error', time: 80 })
      proven(b, s)
    },
  },
  cancelledThenRetried: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call({ id: 'call_gen_0', jobID: 'job-0', ran: 40, completed: 45 }))], { time: 30 })
      b.notice(s, { jobID: 'job-0', state: 'cancelled', time: 80 })
      proven(b, s)
    },
  },
  overlapping: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call()), generateItem(call({ id: 'call_gen_2', jobID: 'job-2', ran: 101, completed: 111 }))], { time: 90 })
      b.notice(s, { jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })
      b.notice(s, { jobID: 'job-2', state: 'completed', file: 'out/hero.png', time: 160 })
      b.assistant(s, [readItem('call_read_1', HERO, [png(1)], 200, 210)], { time: 190 })
    },
  },
  running: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call({ id: 'call_gen_9', status: 'running', jobID: undefined, path: undefined, completed: undefined, ran: 95 }))], { time: 85 })
      proven(b, s)
    },
  },
  runningLater: {
    story: (b, s) => {
      proven(b, s)
      b.assistant(s, [generateItem(call({ id: 'call_gen_9', status: 'running', jobID: undefined, path: undefined, completed: undefined, ran: 300 }))], { time: 290 })
    },
  },
  lineage: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call({ id: 'call_sketch', jobID: 'job-s', path: 'in/sketch', prompt: 'a sketch', ran: 10, completed: 20 }))], { time: 5 })
      b.notice(s, { jobID: 'job-s', state: 'completed', file: 'in/sketch.png', time: 30 })
      b.assistant(s, [generateItem(call({ images: ['in/sketch.png', 'refs/photo.jpg', '/etc/passwd'] }))], { time: 90 })
      b.notice(s, { jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })
      b.assistant(s, [readItem('call_read_1', HERO, [png(1)], 200, 210)], { time: 190 })
    },
  },
  changedLater: {
    story: (b, s) => {
      proven(b, s)
      b.assistant(s, [generateItem(call({ id: 'call_gen_3', jobID: 'job-3', ran: 300, completed: 310 }))], { time: 290 })
    },
  },
  undecodedNotice: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call())], { time: 90 })
      b.notice(s, { jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })
      b.synthetic(s, `Saved image: out/hero.png (${'x'.repeat(70 * 1024)})`, 170)
      b.assistant(s, [readItem('call_read_1', HERO, [png(1)], 200, 210)], { time: 190 })
    },
  },
  largeUnrelatedSynthetic: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call())], { time: 90 })
      b.notice(s, { jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })
      b.synthetic(s, `<file>${'x'.repeat(70 * 1024)}</file>`, 170)
      b.assistant(s, [readItem('call_read_1', HERO, [png(1)], 200, 210)], { time: 190 })
    },
  },
  scanBudget: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call())], { time: 90 })
      b.notice(s, { jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })
      for (let i = 0; i < 4096; i++) b.synthetic(s, `tool list changed ${i}`, 160)
      b.assistant(s, [readItem('call_read_1', HERO, [png(1)], 200, 210)], { time: 190 })
    },
  },
  withinScanBudget: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call())], { time: 90 })
      b.notice(s, { jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })
      for (let i = 0; i < 4094; i++) b.synthetic(s, `tool list changed ${i}`, 160)
      b.assistant(s, [readItem('call_read_1', HERO, [png(1)], 200, 210)], { time: 190 })
    },
  },
  farCall: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call())], { time: 90 })
      b.notice(s, { jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })
      for (let i = 0; i < 31; i++) b.assistant(s, [{ type: 'text', text: `step ${i}` }], { time: 160 + i })
      b.assistant(s, [readItem('call_read_1', HERO, [png(1)], 200, 210)], { time: 195 })
    },
  },
  nearCall: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call())], { time: 90 })
      b.notice(s, { jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })
      for (let i = 0; i < 30; i++) b.assistant(s, [{ type: 'text', text: `step ${i}` }], { time: 160 + i })
      b.assistant(s, [readItem('call_read_1', HERO, [png(1)], 200, 210)], { time: 195 })
    },
  },
  outside: {
    story: (b, s) => {
      b.assistant(s, [generateItem(call({ path: '/tmp/hero' }))], { time: 90 })
      b.notice(s, { jobID: 'job-1', state: 'completed', file: '/tmp/hero.png', time: 150 })
      b.assistant(s, [readItem('call_read_1', '/tmp/hero.png', [png(1)], 200, 210)], { time: 190 })
    },
  },
}

describe('generation provenance through gallery.images and gallery.imageReference (2.x)', () => {
  let deps: TestDeps
  let caller: ReturnType<typeof createCaller>
  const ids: Record<string, string> = {}

  beforeAll(async () => {
    const file = path.join(tempDir(), 'opencode.db')
    const b = createV2GalleryDb(file)
    b.db.transaction(() => {
      for (const [name, s] of Object.entries(stories)) {
        ids[name] = b.session({ directory: DIR, metadata: s.metadata ?? null, parentID: s.parentID ?? null })
        s.story(b, ids[name]!)
      }
    })()
    b.close()
    deps = await createTestDeps(file)
    caller = createCaller({ deps })
  }, 120_000)
  afterAll(() => deps?.cleanup())

  const entries = async (name: string, prompts = false): Promise<GalleryEntry[]> => {
    const page = await caller.gallery.images({ sessionID: ids[name]!, prompts })
    if (page.status !== 'page') throw new Error(JSON.stringify(page))
    return page.entries
  }
  const image = async (name: string, prompts = false) => (await entries(name, prompts)).find((e): e is ImageEntry => e.kind === 'image')!
  const generation = async (name: string, key?: string) =>
    (await entries(name)).filter((e): e is GenerationEntry => e.kind === 'generation').find((g) => !key || g.generationKey === key)!

  it('proves a read of a file one completed generation saved, and links them by key', async () => {
    const img = await image('proven')
    const gen = await generation('proven')
    expect(img).toMatchObject({ origin: 'generated', parentKeys: [], otherRefs: 0 })
    expect(img.generationKey).toBe(gen.generationKey)
    expect(gen).toMatchObject({ kind: 'generation', status: 'completed', outcome: 'completed' })
    expect(JSON.stringify(await entries('proven'))).not.toMatch(/job-1|call_gen_1|out\/hero|\/work\/project/)
  })

  it('gives prompt and model only in a root session marked as the Images conversation, and only when asked', async () => {
    expect(await image('proven', true)).not.toHaveProperty('prompt')
    expect(await image('companion')).not.toHaveProperty('prompt')
    expect(await image('companion', true)).toMatchObject({ prompt: 'A hero image of a lighthouse', model: 'acme/img-2' })
    expect((await entries('companion', true)).find((e) => e.kind === 'generation')).toMatchObject({ prompt: 'A hero image of a lighthouse' })
    expect(await image('childCompanion', true)).not.toHaveProperty('prompt')
  })

  it.each([
    ['no notice for the job', 'noNotice'],
    ['a cancelled attempt before the retry', 'cancelledThenRetried'],
    ['overlapping writers of the same stem', 'overlapping'],
    ['an unfinished call that may write any file', 'running'],
    ['an undecoded synthetic row that may be a notice', 'undecodedNotice'],
    ['a notice scan over 4,096 synthetic rows', 'scanBudget'],
    ['the generating call 32 assistant rows back', 'farCall'],
    ['a read outside the session directory', 'outside'],
  ])('leaves the image unverifiable (with its pixels) given %s', async (_rule, name) => {
    const img = await image(name)
    expect(img).toMatchObject({ origin: 'unverifiable', available: true })
    expect(img).not.toHaveProperty('generationKey')
  })

  it.each([
    ['a failed attempt settled before the retry', 'retried'],
    ['a large synthetic row that cannot be a notice', 'largeUnrelatedSynthetic'],
    ['a scan of 4,096 synthetic rows', 'withinScanBudget'],
    ['the generating call 31 assistant rows back', 'nearCall'],
  ])('still proves the image given %s', async (_rule, name) => {
    expect(await image(name)).toMatchObject({ origin: 'generated' })
  })

  it('states generations from the native status and their unique notice', async () => {
    expect(await generation('noNotice')).toMatchObject({ status: 'completed', outcome: 'unknown' })
    const retried = (await entries('retried')).filter((e) => e.kind === 'generation')
    expect(retried.map((g) => g.kind === 'generation' && g.outcome)).toEqual(['completed', 'error'])
    expect((await entries('running')).find((e) => e.kind === 'generation' && e.status === 'running')).toMatchObject({ outcome: 'unknown', generationKey: null })
  })

  it('gives the lineage of a proven image: proven parents by key, the rest counted', async () => {
    const img = await image('lineage')
    const sketch = (await entries('lineage')).find((e): e is GenerationEntry => e.kind === 'generation' && e.time === 5)!
    expect(img).toMatchObject({ origin: 'generated', parentKeys: [sketch.generationKey], otherRefs: 2 })
  })

  it('references a proven image and its generation by the file they name', async () => {
    const img = await image('proven')
    const gen = await generation('proven')
    expect(await caller.gallery.imageReference({ sessionID: ids.proven!, target: img.target })).toEqual({ status: 'reference', path: 'out/hero.png' })
    expect(await caller.gallery.imageReference({ sessionID: ids.proven!, target: gen.target })).toEqual({ status: 'reference', path: 'out/hero.png' })
  })

  it('refuses references: changed by a later write, outside the location, unverifiable, missing, never substituted', async () => {
    const ref = (name: string, target: string) => caller.gallery.imageReference({ sessionID: ids[name]!, target })
    expect(await ref('changedLater', (await image('changedLater')).target)).toEqual({ status: 'refused', reason: 'changed' })
    expect(await ref('outside', (await image('outside')).target)).toEqual({ status: 'refused', reason: 'outside' })
    expect(await ref('runningLater', (await image('runningLater')).target)).toEqual({ status: 'refused', reason: 'unverifiable' })
    expect(await ref('noNotice', (await generation('noNotice')).target)).toEqual({ status: 'refused', reason: 'unverifiable' })
    // a target from another session is missing there, not answered with that session's file
    expect(await ref('retried', (await image('proven')).target)).toEqual({ status: 'refused', reason: 'missing' })
  })
})

describe('generation provenance on 1.x rows (notices as synthetic text parts)', () => {
  it('proves and refuses as on 2.x', async () => {
    const file = path.join(tempDir(), 'opencode.db')
    const b = createV1GalleryDb(file)
    const proven = b.session({ directory: DIR })
    const unproven = b.session({ directory: DIR })
    for (const s of [proven, unproven]) {
      b.message(s, 'assistant', [v1GeneratePart(call())], 90)
      if (s === proven) b.message(s, 'user', [v1NoticePart({ jobID: 'job-1', state: 'completed', file: 'out/hero.png', time: 150 })], 150)
      b.message(s, 'assistant', [v1ReadPart(HERO, [png(1)], 200, 210)], 190)
    }
    b.close()
    const deps = await createTestDeps(file)
    try {
      const caller = createCaller({ deps })
      const list = async (s: string) => {
        const page = await caller.gallery.images({ sessionID: s })
        return page.status === 'page' ? page.entries : []
      }
      const [img, gen] = [(await list(proven)).find((e) => e.kind === 'image')!, (await list(proven)).find((e) => e.kind === 'generation')!]
      expect(img).toMatchObject({ origin: 'generated', generationKey: gen.kind === 'generation' ? gen.generationKey : 'x' })
      expect(await caller.gallery.imageReference({ sessionID: proven, target: img.target })).toEqual({ status: 'reference', path: 'out/hero.png' })
      expect((await list(unproven)).find((e) => e.kind === 'image')).toMatchObject({ origin: 'unverifiable' })
    } finally {
      deps.cleanup()
    }
  })
})
