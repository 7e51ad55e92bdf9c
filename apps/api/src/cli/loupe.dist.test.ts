import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { copyDb, realFixture, tempDir } from '../../test/harness.js'
import { runLoupe } from '../../test/run-loupe.js'

const API = path.resolve(import.meta.dirname, '../..')
const DIST = path.join(API, 'dist')
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

// A loader hook that fails any import of tsx or of a TypeScript file: the build must need neither.
const NO_TSX = `import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent(\`export async function resolve(specifier, context, next) {
  if (/(^|\\\\/)tsx(\\\\/|$)|\\\\.[mc]?ts$/.test(specifier)) throw new Error('TypeScript at runtime: ' + specifier)
  return next(specifier, context)
}\`))
`

let hook = ''
let hookDir = ''
afterAll(() => fs.rmSync(hookDir, { recursive: true, force: true }))
beforeAll(() => {
  const built = spawnSync(process.execPath, ['scripts/build-js.mjs'], { cwd: API, encoding: 'utf8' })
  expect(built.status, built.stderr).toBe(0)
  hookDir = tempDir('loupe-dist-hook-')
  hook = path.join(hookDir, 'no-tsx.mjs')
  fs.writeFileSync(hook, NO_TSX)
}, 120_000)

async function workDir() {
  const dir = tempDir('loupe-dist-')
  dirs.push(dir)
  copyDb((await realFixture()).db, dir)
  return dir
}

// No node_modules/.bin on PATH: no tsx to find there either.
const plainNode = () => ({ LOUPE_RUN: 'dist', PATH: [path.dirname(process.execPath), '/usr/bin', '/bin'].join(':') })

describe('the compiled bin', () => {
  it('runs sessions, search and doctor (a worker) on plain node, with tsx and .ts imports refused', async () => {
    const dir = await workDir()
    const files = fs.readdirSync(DIST).filter((f) => f.endsWith('.mjs'))
    expect(files).toEqual(expect.arrayContaining(['main.mjs', 'cli.mjs', 'mcp-main.mjs', 'indexer.worker.mjs', 'build-reader.worker.mjs', 'doctor.worker.mjs', 'reclaim-copy.worker.mjs']))
    for (const f of files) expect(fs.readFileSync(path.join(DIST, f), 'utf8')).not.toMatch(/from "tsx|import\("tsx|\.ts"\)/)
    const run = (args: string[], env = plainNode()) => runLoupe(dir, args, { env, nodeArgs: ['--import', hook] })

    // The hook works: the same bin from source needs tsx, and is stopped.
    const control = await run(['sessions', '--db', 'opencode.db'], { ...plainNode(), LOUPE_RUN: 'source' })
    expect(control.code).not.toBe(0)
    expect(control.stderr).toContain('TypeScript at runtime')

    const sessions = await run(['sessions', '--db', 'opencode.db', '--json'])
    expect(sessions.code, sessions.stderr).toBe(0)
    expect(sessions.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toContainEqual(expect.stringMatching(/^ses_/))
    const search = await run(['search', 'stdin', '--db', 'opencode.db', '--json'])
    expect(search.code, search.stderr).toBe(0)
    expect(JSON.parse(search.stdout.split('\n')[0]!)).toMatchObject({ mode: 'index', rank: 1 })
    const doctor = await run(['doctor', '--db', 'opencode.db', '--json'])
    expect(doctor.code, doctor.stderr).toBe(0)
    expect(JSON.parse(doctor.stdout)).toMatchObject({ status: 'done' })
  }, 120_000)

  it('serves MCP over stdio (its indexer worker compiled too) and answers initialize and a search', async () => {
    const dir = await workDir()
    const env = { ...plainNode(), HOME: dir, XDG_DATA_HOME: path.join(dir, 'xdg-data'), XDG_CONFIG_HOME: path.join(dir, 'xdg-config'), XDG_STATE_HOME: path.join(dir, 'xdg-state'), XDG_CACHE_HOME: path.join(dir, 'xdg-cache') }
    const child = spawn(process.execPath, ['--import', hook, path.join(API, 'bin/loupe.mjs'), 'mcp', '--db', 'opencode.db'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let wake = () => {}
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), wake()))
    child.once('close', () => wake())
    const answer = async (id: number): Promise<Record<string, any>> => {
      for (;;) {
        const line = stdout.split('\n').find((l) => l.includes(`"id":${id}`))
        if (line) return JSON.parse(line)
        if (child.exitCode !== null) throw new Error(`loupe mcp exited (${child.exitCode}): ${stderr}`)
        await new Promise<void>((resolve) => (wake = resolve))
      }
    }
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`)
    try {
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } })
      expect((await answer(1)).result, stderr).toMatchObject({ serverInfo: { name: 'loupe' } })
      send({ jsonrpc: '2.0', method: 'notifications/initialized' })
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'session_search', arguments: { query: 'stdin', limit: 3 } } })
      const search = await answer(2)
      expect(search.result.isError ?? false).toBe(false)
      expect(search.result.content[0].text).toContain('«stdin»')
    } finally {
      child.stdin.end()
      await new Promise((resolve) => child.once('close', resolve))
    }
    expect(stderr).not.toContain('TypeScript at runtime')
  }, 120_000)

  it('starts the server (`loupe serve`) on plain node: it listens and answers /healthz', async () => {
    const dir = await workDir()
    const env = { ...plainNode(), HOME: dir, XDG_DATA_HOME: path.join(dir, 'xdg-data'), XDG_CONFIG_HOME: path.join(dir, 'xdg-config'), XDG_STATE_HOME: path.join(dir, 'xdg-state'), XDG_CACHE_HOME: path.join(dir, 'xdg-cache') }
    const child = spawn(process.execPath, ['--import', hook, path.join(API, 'bin/loupe.mjs'), 'serve', '--db', 'opencode.db', '--no-open', '--port', '0'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    const url = await new Promise<string>((resolve, reject) => {
      const look = (d: Buffer) => {
        output += d.toString()
        const found = /http:\/\/127\.0\.0\.1:\d+/.exec(output)
        if (found) resolve(found[0])
      }
      child.stdout.on('data', look)
      child.stderr.on('data', look)
      child.once('close', (code) => reject(new Error(`loupe serve exited (${code}): ${output}`)))
    })
    try {
      // The address is printed as the server starts listening: ask until it answers.
      let res: Response | null = null
      for (let i = 0; i < 50 && !res; i++) res = await fetch(`${url}/healthz`).catch(() => new Promise<null>((r) => setTimeout(() => r(null), 100)))
      expect(res?.status).toBe(200)
      expect(await res!.json()).toEqual({ ok: true })
    } finally {
      child.kill('SIGTERM')
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('close', resolve)))
    }
    expect(output).not.toContain('TypeScript at runtime')
  }, 120_000)
})
