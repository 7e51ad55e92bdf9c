// Real OpenCode databases for tests, generated once per machine and cached.
//
//   import { ensureRealFixture } from '../../tools/fixtures.mjs'
//   const dir = await ensureRealFixture()          // { sessions: 5, v2Sessions: 2 }
//   dir/opencode.db, dir/sessions/*.json, dir/sessions-v2/*.json, dir/manifest.json
//   const bloat = await ensureRealFixture(BLOAT_FIXTURE, { name: 'bloat' })   // one bash progress stream
//
// Tests copy dir/opencode.db before touching it; the cached directory is never written after
// generation. Concurrent callers (turbo runs api and e2e tests in parallel) share one generation
// through a lock directory.
//
//   node tools/fixtures.mjs            generate the default fixture now (npm test does this first)

import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const HARNESS = path.join(here, 'opencode-real')
export const DEFAULT_FIXTURE = { sessions: 5, v2Sessions: 2, projects: 2 }
/** One session whose bash progress streams make OpenCode write thousands of part snapshots: `ensureRealFixture(BLOAT_FIXTURE, { name: 'bloat' })`. */
export const BLOAT_FIXTURE = { sessions: 1, v2Sessions: 0, projects: 1, scenarios: 'bloat' }

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// Bump when the layout of a generated fixture changes, so caches regenerate.
const FIXTURE_FORMAT = 2

function fixtureKey(options) {
  const hash = crypto.createHash('sha256')
  hash.update(`format ${FIXTURE_FORMAT}\n`)
  for (const f of fs.readdirSync(HARNESS).filter((f) => f.endsWith('.mjs')).sort()) hash.update(fs.readFileSync(path.join(HARNESS, f)))
  hash.update(JSON.stringify(options))
  return hash.digest('hex').slice(0, 12)
}

export function fixturesRoot() {
  return process.env.LOUPE_FIXTURES_DIR || path.join(here, '..', '.cache', 'fixtures')
}

/** Generate (or reuse) a real OpenCode 1.18.33 database; returns its directory. */
export async function ensureRealFixture(options = DEFAULT_FIXTURE, { name = 'real', quiet = true } = {}) {
  const opts = { ...DEFAULT_FIXTURE, ...options }
  const root = fixturesRoot()
  const dir = path.join(root, `${name}-${fixtureKey(opts)}`)
  const done = () => fs.existsSync(path.join(dir, '.complete'))
  if (done()) return dir
  fs.mkdirSync(root, { recursive: true })
  const lock = `${dir}.lock`
  for (const t0 = Date.now(); ; ) {
    try {
      fs.mkdirSync(lock)
      break
    } catch {
      if (done()) return dir
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > 15 * 60_000) fs.rmSync(lock, { recursive: true, force: true })
      if (Date.now() - t0 > 20 * 60_000) throw new Error(`timed out waiting for ${lock}`)
      await sleep(500)
    }
  }
  try {
    if (done()) return dir
    const { generate } = await import('./opencode-real/generate.mjs')
    // Generate in place: the database stores absolute project paths, which must stay valid.
    fs.rmSync(dir, { recursive: true, force: true })
    try {
      const manifest = await generate({ out: dir, ...opts, quiet })
      if (manifest.problems.length) {
        throw new Error(`the real OpenCode run reported problems:\n  ${manifest.problems.join('\n  ')}`)
      }
    } catch (error) {
      fs.rmSync(dir, { recursive: true, force: true })
      throw error
    }
    fs.writeFileSync(path.join(dir, '.complete'), new Date().toISOString() + '\n')
    return dir
  } finally {
    fs.rmSync(lock, { recursive: true, force: true })
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const t0 = Date.now()
  const dir = await ensureRealFixture(DEFAULT_FIXTURE, { quiet: false })
  console.error(`[fixtures] real OpenCode fixture ready in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${dir}`)
}
