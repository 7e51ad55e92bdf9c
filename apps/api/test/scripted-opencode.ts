import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The real OpenCode binary (`opencode serve`, 1.18.33) on a database of the test's choosing, driven
 * by the vendored scripted model (tools/opencode-real) so it can run new turns (real-opencode.ts
 * only reads). Isolated HOME/XDG dirs under `work`, loopback
 * ports, and only the processes started here are stopped, by pid.
 */
export interface ScriptedOpencode {
  url: string
  /** The `opencode` process (it holds the database and listens on `url`). */
  pid: number
  get<T = unknown>(route: string, directory?: string): Promise<T>
  post<T = unknown>(route: string, body: unknown, directory?: string): Promise<T>
  /** Server-sent events from `route`, read until `enough` says so or `ms` pass: `{event, data}` each. */
  sse(route: string, enough: (events: SseEvent[]) => boolean, ms?: number): Promise<SseEvent[]>
  /** Register a prompt and the model turns that answer it (see tools/opencode-real/mock-model.mjs). */
  script(entry: ScriptEntry): void
  /** Every model request OpenCode sent, with its full body. */
  requests: Array<{ kind: string; body: { messages: Array<{ role: string; content?: unknown; tool_calls?: unknown[] }> } }>
  stop(): Promise<void>
}

export interface SseEvent {
  event: string
  data: string
}

export interface ScriptEntry {
  prompt: string
  title?: string
  turns: Array<{ reasoning?: string; text?: string; tools?: Array<{ name: string; input: Record<string, unknown> }> }>
}

interface Harness {
  ensureOpencode(o: { cache: string; version: string }): string
  isolatedEnv(work: string, configPath: string): Record<string, string>
  writeConfig(file: string, mockUrl: string): void
  startOpencode(o: { bin: string; env: Record<string, string>; cwd: string; logFile: string }): Promise<{ url: string; child: { pid?: number }; stop(): Promise<unknown> }>
}
interface Mock {
  ScriptRegistry: new () => { add(e: ScriptEntry): void }
  startMockModel(o: { registry: unknown; delayMs?: number; onRequest?: (rec: { kind: string }, body: unknown) => void }): Promise<{ url: string; close(): Promise<void> }>
}
interface Scenarios {
  createProject(dir: string, seed?: number): void
}

const tools = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../tools/opencode-real')
const load = <T>(file: string) => import(path.join(tools, file)) as Promise<T>

/** A git project like the fixture's ("tally"), for OpenCode to work in. */
export async function createProject(dir: string, seed = 0): Promise<void> {
  ;(await load<Scenarios>('scenarios.mjs')).createProject(dir, seed)
}

/**
 * `auth` starts OpenCode with OPENCODE_SERVER_USERNAME/PASSWORD; this client then sends them (the
 * harness's own health poll cannot, so such a server is started here).
 */
export async function startScriptedOpencode(options: { db: string; work: string; cwd: string; experimental?: boolean; delayMs?: number; auth?: { username: string; password: string } }): Promise<ScriptedOpencode> {
  const harness = await load<Harness>('generate.mjs')
  const mockModule = await load<Mock>('mock-model.mjs')
  const cache = process.env.OPENCODE_REAL_CACHE || path.join(os.homedir(), '.cache', 'opencode-real')
  const bin = harness.ensureOpencode({ cache, version: '1.18.33' })
  const registry = new mockModule.ScriptRegistry()
  const requests: ScriptedOpencode['requests'] = []
  const mock = await mockModule.startMockModel({
    registry,
    delayMs: options.delayMs ?? 0,
    onRequest: (rec, body) => requests.push({ kind: rec.kind, body: body as ScriptedOpencode['requests'][number]['body'] }),
  })
  fs.mkdirSync(options.work, { recursive: true })
  const configPath = path.join(options.work, 'config', 'opencode', 'opencode.json')
  harness.writeConfig(configPath, mock.url)
  const env: Record<string, string> = { ...harness.isolatedEnv(options.work, configPath), OPENCODE_DB: path.resolve(options.db) }
  if (options.experimental) env.OPENCODE_EXPERIMENTAL_EVENT_SYSTEM = '1'
  const authorization = options.auth ? `Basic ${Buffer.from(`${options.auth.username}:${options.auth.password}`).toString('base64')}` : null
  let server: { url: string; child: { pid?: number }; stop(): Promise<unknown> }
  try {
    const start = { bin, env, cwd: options.cwd, logFile: path.join(options.work, 'opencode.log') }
    if (options.auth) Object.assign(env, { OPENCODE_SERVER_USERNAME: options.auth.username, OPENCODE_SERVER_PASSWORD: options.auth.password })
    server = authorization ? await startWithAuth(start, authorization) : await harness.startOpencode(start)
  } catch (error) {
    await mock.close()
    throw error
  }
  const call = async <T>(method: string, route: string, body: unknown, directory?: string): Promise<T> => {
    const url = new URL(server.url + route)
    if (directory) url.searchParams.set('directory', directory)
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' }
    if (authorization) headers.authorization = authorization
    const res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${route} -> ${res.status}: ${text.slice(0, 500)}`)
    return (text ? JSON.parse(text) : null) as T
  }
  const sse = async (route: string, enough: (events: SseEvent[]) => boolean, ms = 10_000) => {
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(), ms)
    const events: SseEvent[] = []
    try {
      const res = await fetch(server.url + route, { signal: controller.signal, headers: { accept: 'text/event-stream', ...(authorization ? { authorization } : {}) } })
      if (!res.ok || !res.body) throw new Error(`GET ${route} -> ${res.status}`)
      const decoder = new TextDecoder()
      let buffer = ''
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true })
        let end: number
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const field = (name: string) => block.split('\n').filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).trimStart()).join('\n')
          events.push({ event: field('event') || 'message', data: field('data') })
        }
        if (enough(events)) break
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error
    } finally {
      clearTimeout(timer)
      controller.abort()
    }
    return events
  }
  return {
    url: server.url,
    pid: server.child.pid ?? 0,
    sse,
    get: (route, directory) => call('GET', route, undefined, directory),
    post: (route, body, directory) => call('POST', route, body, directory),
    script: (entry) => registry.add(entry),
    requests,
    async stop() {
      await server.stop()
      await mock.close()
    },
  }
}

/** `opencode serve --port 0` whose health poll sends `authorization`; stopped by its pid only. */
async function startWithAuth(o: { bin: string; env: Record<string, string>; cwd: string; logFile: string }, authorization: string) {
  const log = fs.openSync(o.logFile, 'a')
  const child = spawn(o.bin, ['serve', '--port', '0', '--hostname', '127.0.0.1', '--print-logs'], { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', log] })
  let exited = false
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())))
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exit
      clearTimeout(timer)
    }
    fs.closeSync(log)
  }
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let buffer = ''
      const timer = setTimeout(() => reject(new Error(`opencode serve reported no port within 60 s; see ${o.logFile}`)), 60_000)
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString()
        const match = /listening on (http:\/\/\S+)/.exec(buffer)
        if (match) {
          clearTimeout(timer)
          resolve(match[1]!.replace(/\/$/, ''))
        }
      })
      void exit.then(() => reject(new Error(`opencode serve exited early; see ${o.logFile}`)))
    })
    for (const t0 = Date.now(); ; ) {
      const ok = await fetch(`${url}/global/health`, { headers: { authorization }, signal: AbortSignal.timeout(3000) }).then((r) => r.ok, () => false)
      if (ok) break
      if (exited || Date.now() - t0 > 60_000) throw new Error(`opencode serve is not healthy; see ${o.logFile}`)
      await new Promise((r) => setTimeout(r, 200))
    }
    return { url, child, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
