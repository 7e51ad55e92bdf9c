// Start the real Loupe api as a child process on a free loopback port, for tests and the demo.
//
//   import { startLoupeServer } from '../../tools/loupe-server.mjs'
//   const server = await startLoupeServer({ db: copiedDbPath, dir: tempDir })
//   …fetch(`${server.baseURL}/trpc/…`, { headers: { authorization: `Bearer ${server.token}` } })
//   await server.stop()      // SIGTERM to this pid only, then waits for the exit
//
// HOME and every XDG_* dir point inside `dir`, so the user's real OpenCode data is never touched.

import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { SERVER_ENTRY, SERVER_ENV, SERVER_NODE_FLAGS } from './server-launch.mjs'

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** A port the kernel just handed out on 127.0.0.1 (released again for the server to take). */
export function freePort() {
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

export async function startLoupeServer({ db, dir, token = 'test-token-at-least-24-chars', verbose = false, readyTimeoutMs = 60_000, args: extraArgs = [], port: fixedPort, run = 'source' }) {
  // A fixed port serves a client configured before Loupe starts (OpenCode's remote MCP entry).
  const port = fixedPort ?? await freePort()
  const env = { PATH: process.env.PATH, LOUPE_TOKEN: token, HOME: path.join(dir, 'home') }
  for (const name of ['DATA', 'CONFIG', 'STATE', 'CACHE']) env[`XDG_${name}_HOME`] = path.join(dir, `xdg-${name.toLowerCase()}`)
  fs.mkdirSync(env.HOME, { recursive: true })
  // 'dist' starts the server the way `npm start` does: the JS build (built beforehand by the caller)
  // on plain node, with the launchers' environment and flags; 'bin' the way an installed package's `loupe
  // serve` does, in the bin's own process; 'source' runs the TypeScript through tsx, so edits need
  // no build (with the launchers' environment too).
  const entry = { dist: [...SERVER_NODE_FLAGS, SERVER_ENTRY], bin: ['apps/api/bin/loupe.mjs', 'serve'], source: [...SERVER_NODE_FLAGS, '--import', 'tsx', 'apps/api/src/main.ts'] }[run]
  if (!entry) throw new Error(`run: 'dist' | 'bin' | 'source', not ${run}`)
  if (run === 'bin') env.LOUPE_RUN = 'dist'
  else Object.assign(env, SERVER_ENV)
  const args = [...entry, '--db', db, '--port', String(port), '--no-open', '--data-dir', path.join(dir, 'loupe'), ...extraArgs]
  const child = spawn(process.execPath, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const collect = (chunk) => {
    output = (output + chunk.toString()).slice(-20_000)
    if (verbose) process.stderr.write(chunk)
  }
  child.stdout.on('data', collect)
  child.stderr.on('data', collect)
  const baseURL = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
    await exited
    clearTimeout(timer)
  }
  const deadline = Date.now() + readyTimeoutMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Loupe exited with ${child.exitCode} before it was ready:\n${output}`)
    try {
      if ((await fetch(`${baseURL}/healthz`)).ok) break
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`Loupe did not answer ${baseURL}/healthz in time:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
  return { baseURL, token, pid: child.pid ?? -1, output: () => output, stop }
}
