// Gallery benchmarks: prints numbers, asserts nothing (speed targets are measured here, never in tests).
//
//   node --import tsx bench/gallery.bench.ts
//
// - first gallery page of a 5,000-message session with 500 images (target ≤ 50 ms), both generations
// - walking the whole gallery
// - thumbnail generation rate (256 and 1024 px)
// - cached thumbnail latency over HTTP (membership check + cache read), and raw bytes latency
// - the same with every image stored as a media blob (`media:<sha256>` refs, store/media-blob.ts)
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { createCaller, createTestDeps, type TestDeps } from '../apps/api/test/harness.js'
import { startTestServer } from '../apps/api/test/server.js'
import { dataUri, makePng } from '../apps/api/test/fixtures/gallery/png.js'
import { createV1GalleryDb, v1ReadPart } from '../apps/api/test/fixtures/gallery/v1-gallery-db.js'
import { createV2GalleryDb, readItem } from '../apps/api/test/fixtures/gallery/v2-gallery-db.js'
import { createThumbnailer } from '../apps/api/src/features/gallery/thumbnails.js'
import { storeImagesAsBlobs } from '../apps/api/test/fixtures/pruning/media-blobs.js'

const MESSAGES = 5000
const IMAGES = 500
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!
const fmt = (ms: number) => `${ms.toFixed(1)} ms`

/** A 640×400 screenshot-like PNG: flat bands, with `noisyRows` rows of noise (photos, text) on top. */
function screenshot(seed: number, noisyRows: number): Buffer {
  const w = 640
  const h = 400
  if (noisyRows === 0) return makePng(64, 40, seed)
  let x = (seed * 2654435761) >>> 0
  const noise = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 16) & 255
  const rows: Buffer[] = []
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3)
    for (let i = 0; i < w * 3; i++) row[1 + i] = y < noisyRows ? noise() : (seed + y) & 255
    rows.push(row)
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4)
    len.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(zlib.crc32(body))
    return Buffer.concat([len, body, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(w, 0)
  ihdr.writeUInt32BE(h, 4)
  ihdr[8] = 8
  ihdr[9] = 2
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))])
}

function buildDb(generation: 'v1' | 'v2', file: string, noisyRows: number): { sessionID: string; imageBytes: number } {
  const turns = MESSAGES / 2
  const every = turns / IMAGES
  let imageBytes = 0
  const when = (turn: number) => 1_800_000_000_000 + turn * 1000
  const image = (turn: number) => {
    const png = screenshot(turn, noisyRows)
    imageBytes += png.length
    return dataUri(png)
  }
  if (generation === 'v2') {
    const b = createV2GalleryDb(file)
    const sessionID = b.session({ directory: '/work/project' })
    b.db.transaction(() => {
      for (let turn = 0; turn < turns; turn++) {
        b.user(sessionID, { text: `Request ${turn}: ${'lorem ipsum '.repeat(20)}`, time: when(turn) })
        const content: unknown[] = [{ type: 'text', text: `Answer ${turn}: ${'dolor sit amet '.repeat(60)}` }, { type: 'tool', id: `call_b${turn}`, name: 'bash', state: { status: 'completed', input: { command: 'ls' }, content: [{ type: 'text', text: 'x'.repeat(2000) }] }, time: { created: 1, ran: 2, completed: 3 } }]
        if (turn % every === 0) content.push(readItem(`call_${turn}`, `/work/project/shots/${turn}.png`, [image(turn)], when(turn) + 10, when(turn) + 20))
        b.assistant(sessionID, content, { time: when(turn) + 5 })
      }
    })()
    b.close()
    return { sessionID, imageBytes }
  }
  const b = createV1GalleryDb(file)
  const sessionID = b.session({ directory: '/work/project' })
  b.db.transaction(() => {
    for (let turn = 0; turn < turns; turn++) {
      b.message(sessionID, 'user', [{ type: 'text', text: `Request ${turn}: ${'lorem ipsum '.repeat(20)}` }], when(turn))
      const parts: Record<string, unknown>[] = [{ type: 'step-start' }, { type: 'text', text: `Answer ${turn}: ${'dolor sit amet '.repeat(60)}` }, { type: 'tool', tool: 'bash', callID: `c${turn}`, state: { status: 'completed', input: { command: 'ls' }, output: 'x'.repeat(2000), metadata: {}, title: 'ls', time: { start: 1, end: 2 } } }]
      if (turn % every === 0) parts.push(v1ReadPart(`/work/project/shots/${turn}.png`, [image(turn)], when(turn) + 10, when(turn) + 20))
      parts.push({ type: 'step-finish', reason: 'stop', tokens: { input: 1, output: 1, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0 })
      b.message(sessionID, 'assistant', parts, when(turn) + 5)
    }
  })()
  b.close()
  return { sessionID, imageBytes }
}

async function timePages(deps: TestDeps, sessionID: string) {
  const caller = createCaller({ deps })
  const t0 = performance.now()
  await caller.gallery.images({ sessionID })
  const cold = performance.now() - t0
  const runs: number[] = []
  for (let i = 0; i < 40; i++) {
    const t = performance.now()
    await caller.gallery.images({ sessionID })
    runs.push(performance.now() - t)
  }
  const w0 = performance.now()
  let pages = 0
  let entries = 0
  for (let cursor: string | undefined, more = true; more; ) {
    const page = await caller.gallery.images({ sessionID, ...(cursor ? { cursor } : {}) })
    if (page.status !== 'page') throw new Error('blocked')
    pages++
    entries += page.entries.length
    cursor = page.cursor ?? undefined
    more = cursor !== undefined
  }
  return { cold, p50: quantile(runs, 0.5), p95: quantile(runs, 0.95), walk: performance.now() - w0, pages, entries }
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-gallery-bench-'))
  try {
    console.log(`gallery bench (${os.cpus().length} cpus, node ${process.version})`)
    console.log(`session: ${MESSAGES} messages, ${IMAGES} images\n`)
    for (const [label, noisy] of [['small PNGs', 0], ['screenshot PNGs', 120]] as const) {
      for (const [generation, storage] of [['v2', 'inline'], ['v2', 'media blobs'], ['v1', 'inline'], ['v1', 'media blobs']] as const) {
        const file = path.join(work, `${generation}-${noisy}-${storage.length}.db`)
        const t0 = performance.now()
        const { sessionID, imageBytes } = buildDb(generation, file, noisy)
        if (storage === 'media blobs') storeImagesAsBlobs(file, generation)
        const built = performance.now() - t0
        const deps = await createTestDeps(file)
        try {
          const r = await timePages(deps, sessionID)
          console.log(
            `${generation} ${storage.padEnd(11)} ${label.padEnd(16)} avg image ${(imageBytes / IMAGES / 1024).toFixed(1)} KiB, db ${(fs.statSync(file).size / 1048576).toFixed(0)} MiB (built in ${fmt(built)})\n` +
              `   first page: cold ${fmt(r.cold)}, warm p50 ${fmt(r.p50)}, p95 ${fmt(r.p95)}   (target ≤ 50 ms)\n` +
              `   whole gallery: ${r.pages} pages, ${r.entries} entries in ${fmt(r.walk)} (${fmt(r.walk / r.pages)} per page)`,
          )
        } finally {
          deps.cleanup()
        }
      }
    }

    // thumbnails: render rate (fresh cache), then cached latency over HTTP
    const file = path.join(work, 'thumbs.db')
    const { sessionID } = buildDb('v2', file, 120)
    const deps = await createTestDeps(file)
    const server = await startTestServer(deps)
    try {
      const targets = await firstTargets(deps, sessionID, 48)
      const images = targets.map((t) => Buffer.from(dataUriOf(deps, sessionID, t), 'base64'))
      for (const size of [256, 1024] as const) {
        const thumbs = createThumbnailer(path.join(work, `thumbs-${size}`))
        const t0 = performance.now()
        for (const [i, bytes] of images.entries()) await thumbs.get(String(i).padStart(64, '0'), size, () => bytes)
        const ms = performance.now() - t0
        console.log(`\nthumbnails ${size}px: ${images.length} rendered in ${fmt(ms)} = ${(images.length / (ms / 1000)).toFixed(0)} per second (${fmt(ms / images.length)} each, 640×400 sources)`)
      }
      await timeHttp(server, sessionID, targets, 'inline')
      const mediaFile = path.join(work, 'thumbs-media.db')
      buildDb('v2', mediaFile, 120)
      storeImagesAsBlobs(mediaFile, 'v2')
      const mediaDeps = await createTestDeps(mediaFile)
      const mediaServer = await startTestServer(mediaDeps)
      try {
        await timeHttp(mediaServer, sessionID, await firstTargets(mediaDeps, sessionID, 48), 'media blobs')
      } finally {
        await mediaServer.close()
        mediaDeps.cleanup()
      }
    } finally {
      await server.close()
      deps.cleanup()
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
}

/** The targets of the newest `n` images (or a few more: whole pages). */
async function firstTargets(deps: TestDeps, sessionID: string, n: number): Promise<string[]> {
  const caller = createCaller({ deps })
  const targets: string[] = []
  for (let cursor: string | undefined; targets.length < n; ) {
    const page = await caller.gallery.images({ sessionID, ...(cursor ? { cursor } : {}) })
    if (page.status !== 'page') throw new Error('blocked')
    targets.push(...page.entries.map((e) => e.target))
    if (!page.cursor) break
    cursor = page.cursor
  }
  return targets
}

/** Cached-thumbnail and original-bytes latency over HTTP (the membership check runs on every request). */
async function timeHttp(server: Awaited<ReturnType<typeof startTestServer>>, sessionID: string, targets: string[], label: string) {
  const url = (t: string, q: string) => `/api/sessions/${sessionID}/images/${t}${q}`
  for (const t of targets) await server.fetch(url(t, '?size=256'))
  const cached: number[] = []
  const bytes: number[] = []
  for (let round = 0; round < 5; round++) {
    for (const t of targets) {
      let s = performance.now()
      const res = await server.fetch(url(t, '?size=256'))
      await res.arrayBuffer()
      cached.push(performance.now() - s)
      s = performance.now()
      await (await server.fetch(url(t, ''))).arrayBuffer()
      bytes.push(performance.now() - s)
    }
  }
  console.log(`${label}: cached thumbnail over HTTP (membership check + cache read): p50 ${fmt(quantile(cached, 0.5))}, p95 ${fmt(quantile(cached, 0.95))} (${cached.length} requests)`)
  console.log(`${label}: original bytes over HTTP: p50 ${fmt(quantile(bytes, 0.5))}, p95 ${fmt(quantile(bytes, 0.95))}`)
}

/** The base64 body of one listed image, read straight from the bench DB (for the render-rate test). */
function dataUriOf(deps: TestDeps, sessionID: string, target: string): string {
  const [, messageID] = JSON.parse(Buffer.from(target, 'base64url').toString()) as [string, string]
  const row = deps.opencode.db.raw.prepare(`SELECT data FROM session_message WHERE session_id = ? AND id = ?`).get(sessionID, messageID) as { data: string }
  const content = (JSON.parse(row.data) as { content: Array<{ name?: string; state: { content: Array<{ uri?: string }> } }> }).content
  const uri = content.find((c) => c.name === 'read')!.state.content[1]!.uri!
  return uri.slice(uri.indexOf(',') + 1)
}

await main()
