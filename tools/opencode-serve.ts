import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { freePort } from './loupe-server.mjs'
import { ensureOpencode, isolatedEnv, writeConfig } from './opencode-real/generate.mjs'

// A process launcher beside loupe-server.mjs: the api's tests and the e2e suite start the real
// OpenCode server with it, so neither reaches into the other's files.

/** The OpenCode release every real-binary test and fixture runs. */
export const OPENCODE_VERSION = '1.18.33'

/** Git for tests: this process's PATH, an isolated HOME, no system config. */
export function gitEnvForTests(home: string) {
  return { env: { PATH: process.env.PATH ?? '', HOME: home, GIT_CONFIG_NOSYSTEM: '1' }, timeoutMs: 20_000 }
}

export interface OpenCodeServe {
  url: string
  pid: number
  /** OpenCode's own HTTP API, with the password when the server has one; throws on non-2xx. */
  api<T = any>(method: string, route: string, options?: { directory?: string; body?: unknown }): Promise<T>
  stop(): Promise<void>
}

/**
 * The real `opencode serve` (1.18.33) on 127.0.0.1:0 over `dbPath` (OPENCODE_DB), with HOME and
 * every XDG dir isolated and no model reachable (nothing here prompts). Unlike startRealOpenCode it
 * can require a password (HTTP Basic `opencode:<password>`, which the harness's health poll cannot
 * send) and its `api` takes any method (PATCH archives a session). Stopped by its pid only.
 */
export async function startOpenCodeServe(options: { dbPath: string; password?: string }): Promise<OpenCodeServe> {
  const cache = path.resolve(process.env.OPENCODE_REAL_CACHE ?? path.join(os.homedir(), '.cache', 'opencode-real'))
  const bin = ensureOpencode({ cache, version: OPENCODE_VERSION })
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-opencode-'))
  const configPath = path.join(work, 'config', 'opencode', 'opencode.json')
  const env = { ...isolatedEnv(work, configPath), OPENCODE_DB: options.dbPath }
  if (options.password) Object.assign(env, { OPENCODE_SERVER_PASSWORD: options.password })
  writeConfig(configPath, 'http://127.0.0.1:9/v1')
  const cwd = path.join(work, 'cwd')
  fs.mkdirSync(cwd)
  const logFile = path.join(work, 'opencode.log')
  const log = fs.openSync(logFile, 'a')
  // Not `--port 0`: OpenCode then tries 4096 first, so a test that stops its server and expects
  // nothing at that URL could meet another test's OpenCode there.
  const port = await freePort()
  const child = spawn(bin, ['serve', '--port', String(port), '--hostname', '127.0.0.1', '--print-logs'], { cwd, env, stdio: ['ignore', 'pipe', log] })
  let exited = false
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())))
  const authorization = options.password ? `Basic ${Buffer.from(`opencode:${options.password}`).toString('base64')}` : null

  let stopping: Promise<void> | null = null
  const stop = () =>
    (stopping ??= (async () => {
      if (!exited) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
        await exit
        clearTimeout(timer)
      }
      fs.closeSync(log)
      fs.rmSync(work, { recursive: true, force: true })
    })())
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let buffer = ''
      const timer = setTimeout(() => reject(new Error(`opencode serve reported no port within 60 s; see ${logFile}`)), 60_000)
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString()
        const match = /listening on (http:\/\/\S+)/.exec(buffer)
        if (match) {
          clearTimeout(timer)
          resolve(match[1]!.replace(/\/$/, ''))
        }
      })
      void exit.then(() => reject(new Error(`opencode serve exited early; see ${logFile}`)))
    })
    const api = async <T,>(method: string, route: string, o: { directory?: string; body?: unknown; timeoutMs?: number } = {}): Promise<T> => {
      const target = new URL(url + route)
      if (o.directory) target.searchParams.set('directory', o.directory)
      const headers: Record<string, string> = {}
      if (authorization) headers.authorization = authorization
      if (o.body !== undefined) headers['content-type'] = 'application/json'
      const response = await fetch(target, { method, headers, body: o.body === undefined ? undefined : JSON.stringify(o.body), signal: AbortSignal.timeout(o.timeoutMs ?? 30_000) })
      const text = await response.text()
      if (!response.ok) throw new Error(`${method} ${route} -> ${response.status}: ${text.slice(0, 300)}`)
      return (text ? JSON.parse(text) : null) as T
    }
    for (const t0 = Date.now(); ; ) {
      try {
        // A request sent while the server boots can hang: poll with a short timeout.
        await api('GET', '/global/health', { timeoutMs: 1500 })
        break
      } catch {
        if (exited || Date.now() - t0 > 60_000) throw new Error(`opencode serve is not healthy; see ${logFile}`)
        await new Promise((r) => setTimeout(r, 200))
      }
    }
    return { url, pid: child.pid!, api, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
