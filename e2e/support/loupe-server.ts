import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ensureRealFixture } from '../../tools/fixtures.mjs'
import { addLongSession } from './long-session.js'

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
export const LONG_SESSION_TITLE = 'Long transcript (paging demo)'

export interface LoupeServer {
  baseURL: string
  token: string
  pid: number
  dir: string
  longSessionID: string
  stop: () => Promise<void>
}

export interface StartOptions {
  /** Messages in the extra long session built from a real one. */
  longMessages?: number
  /** Stream the server's output to this process's stderr. */
  verbose?: boolean
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Loupe exited with ${child.exitCode} before it was ready:\n${output()}`)
    try {
      if ((await fetch(`${url}/healthz`)).ok) return
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 150))
  }
  throw new Error(`Loupe did not answer ${url}/healthz within 60 s:\n${output()}`)
}

/**
 * Start the real Loupe server on a free loopback port over a copy of the real-OpenCode fixture
 * (plus one long session), with HOME and every XDG dir isolated in a temp dir.
 */
export async function startLoupe(options: StartOptions = {}): Promise<LoupeServer> {
  const webIndex = path.join(repoRoot, 'apps', 'web', 'dist', 'index.html')
  if (!fs.existsSync(webIndex)) throw new Error('apps/web/dist is missing: build the web app first (npx turbo run build --filter=@loupe/web).')
  const fixture = await ensureRealFixture()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-'))
  const db = path.join(dir, 'opencode.db')
  fs.copyFileSync(path.join(fixture, 'opencode.db'), db)
  const long = addLongSession(db, { sourceTitle: 'Slugify helper in slug-2.js', messages: options.longMessages ?? 400, title: LONG_SESSION_TITLE })
  const port = await freePort()
  const token = 'e2e-token'
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LOUPE_TOKEN: token, HOME: path.join(dir, 'home') }
  for (const name of ['DATA', 'CONFIG', 'STATE', 'CACHE']) env[`XDG_${name}_HOME`] = path.join(dir, `xdg-${name.toLowerCase()}`)
  const args = ['--import', 'tsx', 'apps/api/src/main.ts', '--db', db, '--port', String(port), '--no-open', '--data-dir', path.join(dir, 'loupe')]
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000)
    if (options.verbose) process.stderr.write(chunk)
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const baseURL = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    }
    fs.rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitForHealth(baseURL, child, () => output)
  } catch (error) {
    await stop()
    throw error
  }
  return { baseURL, token, pid: child.pid ?? -1, dir, longSessionID: long.id, stop }
}
