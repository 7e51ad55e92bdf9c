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
  startOpencode(o: { bin: string; env: Record<string, string>; cwd: string; logFile: string }): Promise<{ url: string; stop(): Promise<unknown> }>
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

export async function startScriptedOpencode(options: { db: string; work: string; cwd: string; experimental?: boolean; delayMs?: number }): Promise<ScriptedOpencode> {
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
  let server: { url: string; stop(): Promise<unknown> }
  try {
    server = await harness.startOpencode({ bin, env, cwd: options.cwd, logFile: path.join(options.work, 'opencode.log') })
  } catch (error) {
    await mock.close()
    throw error
  }
  const call = async <T>(method: string, route: string, body: unknown, directory?: string): Promise<T> => {
    const url = new URL(server.url + route)
    if (directory) url.searchParams.set('directory', directory)
    const res = await fetch(url, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
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
      const res = await fetch(server.url + route, { signal: controller.signal, headers: { accept: 'text/event-stream' } })
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
