#!/usr/bin/env node
// generate.mjs — make the REAL OpenCode produce REAL session histories offline.
//
//   node generate.mjs --out DIR [--sessions N] [options]     (see --help)
//
// What it does:
//   1. installs opencode-ai@VERSION with npm into a cache dir (once);
//   2. starts the scripted mock model (mock-model.mjs) on 127.0.0.1;
//   3. starts `opencode serve` with HOME and every XDG dir isolated under the
//      work dir, network features switched off, and a config whose only
//      provider is the mock (npm "@ai-sdk/openai-compatible", bundled in the
//      opencode binary, so nothing is installed at run time);
//   4. drives it over its HTTP API: one session per scenario (scenarios.mjs),
//      prompts via POST /session/:id/message, compaction via /summarize;
//   5. exports every session (GET /session/:id + /message, the same JSON that
//      `opencode export` prints), stops OpenCode, and copies its SQLite DB.
//
// Output (DIR):
//   opencode.db            OpenCode's database (tables session, message, part, ...)
//   sessions/<id>.json     { info, messages: [{ info, parts }] } per session, children too
//   manifest.json          versions, timings, per-session summary, problems seen
//   projects/<name>/       the git projects the sessions worked in (paths in the DB point here)
//   opencode.log           OpenCode's own log
//   mock-requests.jsonl    one line per model request (with --log-requests: full bodies)
//
// It only ever stops the processes it started itself (by their pid).

import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { spawn, spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { ScriptRegistry, startMockModel } from "./mock-model.mjs"
import { createProject, scenarioFor } from "./scenarios.mjs"

const DEFAULT_VERSION = "1.18.33"

// ---------------------------------------------------------------------------
// command line
// ---------------------------------------------------------------------------
const HELP = `usage: node generate.mjs --out DIR [options]

  --out DIR            output directory (created; must be empty or absent)
  --sessions N         number of top-level sessions (default 3; scenarios rotate)
  --projects K         project directories (default 2); sessions are spread over
                       them round-robin, run one after another within a project
                       and in parallel across projects
  --version V          opencode-ai version to install (default ${DEFAULT_VERSION})
  --cache DIR          where opencode-ai is npm-installed
                       (default $OPENCODE_REAL_CACHE or ~/.cache/opencode-real)
  --opencode PATH      use this opencode binary instead of installing one
  --work DIR           isolated HOME/XDG dirs (default DIR/.work, removed at the end)
  --v2-sessions M      EXPERIMENTAL: also run M sessions through OpenCode's new
                       /api/session endpoints (sets OPENCODE_EXPERIMENTAL_EVENT_SYSTEM=1);
                       they are stored in table session_message, exported to sessions-v2/
  --scenarios SET      scenario set: default (rotates over five), bloat (a long progress stream), mcp (programmatic: needs the mcp option)
  --keep-work          keep the work dir (its data/opencode/ is OpenCode's real data dir)
  --delay MS           pause between streamed chunks of the mock model (default 0)
  --log-requests       write full request bodies to mock-requests.jsonl
  --timeout S          per-prompt timeout in seconds (default 120)
  --quiet              less output
`

function parseArgs(argv) {
  const o = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const val = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`)
      return argv[++i]
    }
    if (a === "--help" || a === "-h") { process.stdout.write(HELP); process.exit(0) }
    else if (a === "--out") o.out = val()
    else if (a === "--sessions") o.sessions = Number(val())
    else if (a === "--projects") o.projects = Number(val())
    else if (a === "--v2-sessions") o.v2Sessions = Number(val())
    else if (a === "--scenarios") o.scenarios = val()
    else if (a === "--version") o.version = val()
    else if (a === "--cache") o.cache = val()
    else if (a === "--opencode") o.opencode = val()
    else if (a === "--work") o.work = val()
    else if (a === "--keep-work") o.keepWork = true
    else if (a === "--delay") o.delay = Number(val())
    else if (a === "--log-requests") o.logRequests = true
    else if (a === "--timeout") o.timeout = Number(val())
    else if (a === "--quiet") o.quiet = true
    else throw new Error(`unknown argument ${a}\n\n${HELP}`)
  }
  if (!o.out) throw new Error(`--out is required\n\n${HELP}`)
  return o
}

/** Fill in defaults; shared by the CLI and programmatic callers of generate(). */
function withDefaults(opts) {
  const o = {
    sessions: 3, projects: 2, v2Sessions: 0, scenarios: "default", version: DEFAULT_VERSION, delay: 0, timeout: 120,
    keepWork: false, logRequests: false, quiet: false,
    ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)),
  }
  if (!o.out) throw new Error("out directory is required")
  for (const k of ["sessions", "projects"]) if (!(o[k] >= 1)) throw new Error(`--${k} must be >= 1`)
  if (!(o.v2Sessions >= 0)) throw new Error("--v2-sessions must be >= 0")
  o.out = path.resolve(o.out)
  o.cache = path.resolve(o.cache ?? process.env.OPENCODE_REAL_CACHE ?? path.join(os.homedir(), ".cache", "opencode-real"))
  o.work = path.resolve(o.work ?? path.join(o.out, ".work"))
  return o
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms))
let QUIET = false
const log = (...a) => { if (!QUIET) console.error("[generate]", ...a) }
const warnings = []
const warn = (msg) => { warnings.push(msg); console.error("[generate] WARNING:", msg) }

// ---------------------------------------------------------------------------
// 1. opencode binary
// ---------------------------------------------------------------------------
/** `opencode --version`, or undefined. */
function opencodeVersion(bin) {
  if (!fs.existsSync(bin)) return undefined
  return spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 60000 }).stdout?.trim() || undefined
}

/** Install opencode-ai@version into cache/opencode-ai@version with npm (once); return the binary. */
export function ensureOpencode({ cache, version }) {
  const prefix = path.join(cache, `opencode-ai@${version}`)
  const bin = path.join(prefix, "node_modules", ".bin", process.platform === "win32" ? "opencode.cmd" : "opencode")
  const ok = () => opencodeVersion(bin) === version
  if (ok()) return bin
  log(`installing opencode-ai@${version} into ${prefix} (npm) ...`)
  fs.mkdirSync(prefix, { recursive: true })
  if (!fs.existsSync(path.join(prefix, "package.json")))
    fs.writeFileSync(path.join(prefix, "package.json"), JSON.stringify({ name: "opencode-real-cache", private: true }) + "\n")
  const r = spawnSync(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", prefix, `opencode-ai@${version}`],
    { stdio: ["ignore", "inherit", "inherit"] },
  )
  if (r.status !== 0) throw new Error(`npm install opencode-ai@${version} failed (exit ${r.status})`)
  if (!ok()) throw new Error(`opencode-ai@${version} installed but ${bin} --version does not answer ${version}`)
  return bin
}

// ---------------------------------------------------------------------------
// 2./3. processes
// ---------------------------------------------------------------------------
/** Environment for OpenCode: nothing inherited but PATH/locale, everything isolated under work. */
export function isolatedEnv(work, configPath) {
  const dirs = {
    HOME: path.join(work, "home"),
    XDG_DATA_HOME: path.join(work, "data"),
    XDG_CONFIG_HOME: path.join(work, "config"),
    XDG_STATE_HOME: path.join(work, "state"),
    XDG_CACHE_HOME: path.join(work, "cache"),
    TMPDIR: path.join(work, "tmp"),
  }
  for (const d of Object.values(dirs)) fs.mkdirSync(d, { recursive: true })
  const keep = {}
  for (const k of ["PATH", "LANG", "LC_ALL", "TZ", "SHELL"]) if (process.env[k]) keep[k] = process.env[k]
  return {
    ...keep,
    ...dirs,
    TERM: "dumb",
    OPENCODE_CONFIG: configPath, // our config (the global one lives in XDG_CONFIG_HOME anyway)
    OPENCODE_DISABLE_AUTOUPDATE: "1", // no update check
    OPENCODE_DISABLE_MODELS_FETCH: "1", // no models.dev download
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1", // no language-server downloads
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_DEFAULT_PLUGINS: "1", // no built-in auth plugins
    OPENCODE_DISABLE_CLAUDE_CODE: "1", // ignore ~/.claude prompts/skills
    OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
    OPENCODE_DISABLE_PROJECT_CONFIG: "1", // ignore opencode.json files found in parent dirs
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
  }
}

export function writeConfig(file, mockUrl, mcp) {
  const config = {
    ...(mcp ? { mcp } : {}),
    $schema: "https://opencode.ai/config.json",
    model: "mock/scripted",
    small_model: "mock/scripted", // title generation also goes to the mock
    enabled_providers: ["mock"],
    autoupdate: false,
    share: "disabled",
    permission: "allow", // never stop to ask
    lsp: false,
    formatter: false,
    provider: {
      mock: {
        npm: "@ai-sdk/openai-compatible",
        name: "Mock (scripted)",
        options: { baseURL: mockUrl, apiKey: "mock-key" },
        models: {
          scripted: {
            name: "Scripted",
            tool_call: true,
            reasoning: true,
            attachment: true,
            temperature: true,
            modalities: { input: ["text", "image"], output: ["text"] },
            limit: { context: 200000, output: 8192 },
            cost: { input: 1, output: 2, cache_read: 0.1 }, // USD per 1M tokens, so costs are non-zero
          },
        },
      },
    },
  }
  const dir = path.dirname(file)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(file, JSON.stringify(config, null, 2) + "\n")
  // OpenCode runs a background `npm install @opencode-ai/plugin@<version>` (via
  // npm's Arborist, against the npm registry) in every config dir whose
  // node_modules is missing or whose package-lock lacks a dependency of
  // package.json. Nothing here uses plugins, so mark it as already installed:
  // this keeps the run offline and lets OpenCode stop promptly.
  fs.mkdirSync(path.join(dir, "node_modules"), { recursive: true })
  const deps = { "@opencode-ai/plugin": "*" }
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ private: true, dependencies: deps }, null, 2) + "\n")
  fs.writeFileSync(
    path.join(dir, "package-lock.json"),
    JSON.stringify({ name: "opencode-config", lockfileVersion: 3, requires: true, packages: { "": { dependencies: deps } } }, null, 2) + "\n",
  )
}

/** Start `opencode serve --port 0` and read the port it prints. */
export async function startOpencode({ bin, env, cwd, logFile }) {
  const logFd = fs.openSync(logFile, "a")
  const child = spawn(bin, ["serve", "--port", "0", "--hostname", "127.0.0.1", "--print-logs", "--log-level", "INFO"], {
    cwd,
    env,
    stdio: ["ignore", "pipe", logFd],
  })
  let exited = null
  const exitedP = new Promise((r) => child.once("exit", (code, sig) => r((exited = { code, sig }))))
  /** SIGTERM, then SIGKILL after 15 s — only this child, by its pid. */
  async function stop() {
    if (exited) return exited
    child.kill("SIGTERM")
    let timer
    const res = await Promise.race([exitedP, new Promise((r) => (timer = setTimeout(() => r(null), 15000)))])
    clearTimeout(timer)
    if (res) return res
    child.kill("SIGKILL")
    return await exitedP
  }
  try {
    // it prints "opencode server listening on http://127.0.0.1:PORT" on stdout
    let buf = ""
    let onPort
    const portP = new Promise((resolve) => (onPort = resolve))
    child.stdout.on("data", (d) => {
      fs.appendFileSync(logFile, d)
      if (buf === null) return
      buf += d
      const m = /listening on (http:\/\/\S+)/.exec(buf)
      if (m) { buf = null; onPort(m[1].replace(/\/$/, "")) }
    })
    let timer
    const url = await Promise.race([
      portP,
      exitedP.then((e) => { throw new Error(`opencode serve exited early (${JSON.stringify(e)}); see ${logFile}`) }),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("opencode serve did not report a port within 60 s")), 60000))),
    ]).finally(() => clearTimeout(timer))
    // wait until the API answers (the first requests can be slow while it boots)
    for (const t0 = Date.now(); ; ) {
      try {
        const r = await fetch(url + "/global/health", { signal: AbortSignal.timeout(3000) })
        if (r.ok) break
      } catch {}
      if (exited) throw new Error(`opencode serve exited (${JSON.stringify(exited)}); see ${logFile}`)
      if (Date.now() - t0 > 60000) throw new Error("opencode API not healthy after 60 s")
      await sleep(200)
    }
    return { url, child, stop }
  } catch (err) {
    await stop()
    throw err
  }
}

// ---------------------------------------------------------------------------
// 4. HTTP API client
// ---------------------------------------------------------------------------
export function apiClient(base) {
  async function call(method, p, { directory, body, timeoutMs = 60000 } = {}) {
    const u = new URL(base + p)
    if (directory) u.searchParams.set("directory", directory)
    const r = await fetch(u, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await r.text()
    if (!r.ok) throw new Error(`${method} ${p} -> ${r.status}: ${text.slice(0, 500)}`)
    return text ? JSON.parse(text) : null
  }
  return {
    get: (p, o) => call("GET", p, o),
    post: (p, body, o = {}) => call("POST", p, { ...o, body }),
  }
}

/**
 * While a prompt runs, answer anything that would block a headless run:
 * permission requests (allowed once) and questions (rejected).
 */
function startUnblocker(api, directory, problems) {
  let stop = false
  const loop = (async () => {
    while (!stop) {
      try {
        for (const p of (await api.get("/permission", { directory })) ?? []) {
          problems.push(`permission asked: ${p.permission ?? p.type} ${JSON.stringify(p.patterns ?? p.pattern ?? "")}`)
          await api.post(`/permission/${p.id}/reply`, { reply: "once" }, { directory })
        }
        for (const q of (await api.get("/question", { directory })) ?? []) {
          problems.push(`question asked: ${JSON.stringify(q).slice(0, 200)}`)
          await api.post(`/question/${q.id}/reject`, {}, { directory })
        }
      } catch {}
      await sleep(500)
    }
  })()
  return async () => { stop = true; await loop }
}

/** Run one scenario as one session; returns a summary row for the manifest. */
async function runSession({ api, index, scenario, directory, timeoutMs }) {
  const t0 = Date.now()
  const problems = []
  const session = await api.post("/session", {}, { directory })
  const row = { index, scenario: scenario.name, id: session.id, directory, steps: [], problems }
  const stopUnblocker = startUnblocker(api, directory, problems)
  try {
    for (const step of scenario.steps) {
      const s0 = Date.now()
      if (step.type === "prompt") {
        // "{{cwd}}" in extra parts (e.g. file:// URLs) -> this session's project directory
        const extra = JSON.parse(JSON.stringify(step.parts ?? []).replaceAll("{{cwd}}", JSON.stringify(directory).slice(1, -1)))
        const body = { parts: [{ type: "text", text: step.entry.prompt }, ...extra] }
        if (step.agent) body.agent = step.agent
        const res = await api.post(`/session/${session.id}/message`, body, { directory, timeoutMs })
        if (res?.info?.error) problems.push(`assistant error: ${JSON.stringify(res.info.error).slice(0, 300)}`)
        row.steps.push({ type: "prompt", ms: Date.now() - s0, finish: res?.info?.finish })
      } else if (step.type === "summarize") {
        await api.post(`/session/${session.id}/summarize`, { providerID: "mock", modelID: "scripted" }, { directory, timeoutMs })
        row.steps.push({ type: "summarize", ms: Date.now() - s0 })
      }
    }
  } catch (err) {
    problems.push(String(err?.message ?? err))
  } finally {
    await stopUnblocker()
  }
  row.ms = Date.now() - t0
  return row
}

/** Wait until no session is busy and background title generation has settled. */
export async function waitIdle(api, directories, maxMs = 30000) {
  const t0 = Date.now()
  while (Date.now() - t0 < maxMs) {
    let busy = 0
    for (const d of directories) {
      const st = (await api.get("/session/status", { directory: d })) ?? {}
      busy += Object.values(st).filter((s) => s?.type && s.type !== "idle").length
    }
    if (!busy) return true
    await sleep(300)
  }
  return false
}

export async function exportSessions(api, directories, outDir, skip = new Set()) {
  fs.mkdirSync(outDir, { recursive: true })
  const rows = []
  for (const d of directories) {
    // roots are listed by GET /session; children via /children (recursively)
    const queue = [...((await api.get("/session", { directory: d })) ?? [])]
    const seen = new Set()
    while (queue.length) {
      const info = queue.shift()
      if (seen.has(info.id) || skip.has(info.id)) continue
      seen.add(info.id)
      const full = await api.get(`/session/${info.id}`, { directory: d })
      const messages = await api.get(`/session/${info.id}/message`, { directory: d })
      fs.writeFileSync(path.join(outDir, `${info.id}.json`), JSON.stringify({ info: full, messages }, null, 2) + "\n")
      const parts = messages.flatMap((m) => m.parts)
      const count = (t) => parts.filter((p) => p.type === t).length
      rows.push({
        id: info.id,
        parentID: full.parentID ?? null,
        title: full.title,
        directory: full.directory,
        messages: messages.length,
        parts: parts.length,
        partTypes: Object.fromEntries([...new Set(parts.map((p) => p.type))].map((t) => [t, count(t)])),
        tools: [...new Set(parts.filter((p) => p.type === "tool").map((p) => `${p.tool}:${p.state?.status}`))],
      })
      for (const c of (await api.get(`/session/${info.id}/children`, { directory: d })) ?? []) queue.push(c)
    }
  }
  return rows
}

// ---------------------------------------------------------------------------
// EXPERIMENTAL: the v2 session API (/api/session), stored in table session_message.
// In 1.18.33 its prompts only run with OPENCODE_EXPERIMENTAL_EVENT_SYSTEM=1, and
// POST /api/session/:id/wait answers 503 "not available yet", so completion is
// detected by polling the message list.
// ---------------------------------------------------------------------------
async function waitV2(api, id, timeoutMs, done) {
  const t0 = Date.now()
  await sleep(200)
  while (Date.now() - t0 < timeoutMs) {
    const active = (await api.get("/api/session/active"))?.data ?? {}
    if (!active[id]) {
      const newest = (await api.get(`/api/session/${id}/message?order=desc&limit=1`))?.data?.[0]
      if (newest && done(newest)) return newest
    }
    await sleep(250)
  }
  throw new Error(`v2 session ${id} did not finish within ${timeoutMs} ms`)
}

async function runSessionV2({ api, index, scenario, directory, timeoutMs }) {
  const t0 = Date.now()
  const problems = []
  const created = await api.post("/api/session", { location: { directory }, model: { id: "scripted", providerID: "mock" } })
  const id = created.data.id
  const row = { index, scenario: scenario.name, id, directory, api: "v2", steps: [], problems }
  try {
    for (const step of scenario.steps) {
      const s0 = Date.now()
      if (step.type === "prompt") {
        if (step.agent) await api.post(`/api/session/${id}/agent`, { agent: step.agent })
        // only images: the v2 runtime's OpenAI-compatible adapter rejects text files
        // ("OpenAI Chat does not support media type text/javascript")
        const files = (step.parts ?? [])
          .filter((p) => p.type === "file" && p.mime?.startsWith("image/"))
          .map((p) => ({ uri: p.url, name: p.filename }))
        const prompt = { text: step.entry.prompt, ...(files.length ? { files } : {}) }
        const admitted = await api.post(`/api/session/${id}/prompt`, { prompt })
        const last = await waitV2(api, id, timeoutMs, (m) => m.type === "assistant" && m.time?.completed && m.finish && m.finish !== "tool-calls" && m.id > admitted.data.id)
        row.steps.push({ type: "prompt", ms: Date.now() - s0, finish: last.finish })
      } else if (step.type === "summarize") {
        // 1.18.33 answers 503 "Session compact is not available yet"
        const before = (await api.get(`/api/session/${id}/message?order=desc&limit=1`))?.data?.[0]?.id ?? ""
        try {
          await api.post(`/api/session/${id}/compact`)
        } catch (err) {
          if (!/-> 503/.test(err.message)) throw err
          row.steps.push({ type: "summarize", skipped: "503 not available in this version" })
          continue
        }
        await waitV2(api, id, timeoutMs, (m) => m.id > before && m.type !== "user")
        row.steps.push({ type: "summarize", ms: Date.now() - s0 })
      }
    }
  } catch (err) {
    problems.push(String(err?.message ?? err))
  }
  row.ms = Date.now() - t0
  return row
}

async function exportSessionsV2(api, ids, outDir) {
  fs.mkdirSync(outDir, { recursive: true })
  const rows = []
  for (const id of ids) {
    const info = (await api.get(`/api/session/${id}`))?.data
    const messages = []
    for (let cursor, guard = 0; guard < 1000; guard++) {
      const page = await api.get(`/api/session/${id}/message?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : "&order=asc"}`)
      messages.push(...(page?.data ?? []))
      if (!page?.data?.length || !page.cursor?.next || page.data.length < 100) break
      cursor = page.cursor.next
    }
    fs.writeFileSync(path.join(outDir, `${id}.json`), JSON.stringify({ info, messages }, null, 2) + "\n")
    const content = messages.flatMap((m) => m.content ?? [])
    rows.push({
      id,
      api: "v2",
      title: info?.title,
      messages: messages.length,
      messageTypes: Object.fromEntries([...new Set(messages.map((m) => m.type))].map((t) => [t, messages.filter((m) => m.type === t).length])),
      tools: [...new Set(content.filter((c) => c.type === "tool").map((c) => `${c.name}:${c.state?.status}`))],
    })
  }
  return rows
}

/**
 * Run `fn` over items: items with the same key one after another, different
 * keys in parallel. (Sessions sharing a project must not overlap, or each one's
 * file snapshots/patches would pick up the other's edits.)
 */
async function lanes(items, keyOf, fn) {
  const groups = new Map()
  for (const it of items) groups.set(keyOf(it), [...(groups.get(keyOf(it)) ?? []), it])
  const out = []
  await Promise.all(
    [...groups.values()].map(async (group) => {
      for (const it of group) out.push(await fn(it))
    }),
  )
  return out
}

// ---------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------
export async function generate(options) {
  const opts = withDefaults(options)
  QUIET = !!opts.quiet
  warnings.length = 0
  const T = { start: Date.now() }
  if (fs.existsSync(opts.out) && fs.readdirSync(opts.out).filter((f) => f !== ".work").length)
    throw new Error(`--out ${opts.out} is not empty`)
  fs.mkdirSync(opts.out, { recursive: true })

  const bin = opts.opencode ? path.resolve(opts.opencode) : ensureOpencode(opts)
  const version = opencodeVersion(bin)
  if (!version) throw new Error(`${bin} --version gave no answer`)
  T.installed = Date.now()
  log(`opencode ${version} at ${bin}`)
  const hasRg = spawnSync("rg", ["--version"], { encoding: "utf8" }).status === 0
  if (!hasRg)
    warn("ripgrep (rg) is not on PATH, so OpenCode's glob/grep tools cannot work; their tool parts will " +
      "end in status 'error'. Install ripgrep (Debian: apt-get install ripgrep) for complete sessions.")

  // projects
  const projects = Array.from({ length: opts.projects }, (_, k) => path.join(opts.out, "projects", `tally-${k + 1}`))
  projects.forEach((p, k) => createProject(p, k))

  // mock model + scripts
  const registry = new ScriptRegistry()
  const plans = Array.from({ length: opts.sessions }, (_, i) => ({ index: i, scenario: scenarioFor(i, opts.scenarios), directory: projects[i % projects.length] }))
  for (const { scenario } of plans) {
    for (const s of scenario.steps) if (s.entry) registry.add(s.entry)
    for (const e of scenario.register ?? []) registry.add(e)
  }
  const reqLog = fs.createWriteStream(path.join(opts.out, "mock-requests.jsonl"))
  const mock = await startMockModel({
    registry,
    delayMs: opts.delay,
    onRequest: (rec, body) => reqLog.write(JSON.stringify(opts.logRequests ? { ...rec, body } : rec) + "\n"),
  })
  log(`mock model on ${mock.url}`)

  // opencode
  fs.rmSync(opts.work, { recursive: true, force: true })
  const configPath = path.join(opts.work, "config", "opencode", "opencode.json")
  writeConfig(configPath, mock.url, opts.mcp)
  const env = isolatedEnv(opts.work, configPath)
  if (opts.v2Sessions > 0) env.OPENCODE_EXPERIMENTAL_EVENT_SYSTEM = "1"
  if (!hasRg) {
    // Without rg on PATH OpenCode looks in $XDG_CACHE_HOME/opencode/bin/rg and
    // otherwise downloads ripgrep from GitHub. A stub there that fails keeps
    // the run offline (glob/grep then fail the way they do without network).
    const stub = path.join(env.XDG_CACHE_HOME, "opencode", "bin", "rg")
    fs.mkdirSync(path.dirname(stub), { recursive: true })
    fs.writeFileSync(stub, '#!/bin/sh\necho "rg: ripgrep is not installed (opencode-real stub)" >&2\nexit 127\n', { mode: 0o755 })
  }
  const logFile = path.join(opts.out, "opencode.log")
  let oc
  const manifest = { generator: "opencode-real/generate.mjs", opencodeVersion: version, ripgrep: hasRg, options: { ...opts }, sessions: [], problems: [], warnings }
  try {
    oc = await startOpencode({ bin, env, cwd: projects[0], logFile })
    T.serverUp = Date.now()
    log(`opencode serve on ${oc.url} (${T.serverUp - T.installed} ms to start)`)
    const api = apiClient(oc.url)

    // With a beforeSession hook (e.g. starting an MCP server on OpenCode's DB once it exists) the
    // sessions run one after another, so the hook runs between them.
    const dbPath = path.join(opts.work, "data", "opencode", "opencode.db")
    const rows = await lanes(plans, (p) => (opts.beforeSession ? "one" : p.directory), async (plan) => {
      await opts.beforeSession?.({ index: plan.index, directory: plan.directory, dbPath })
      const row = await runSession({ api, ...plan, timeoutMs: opts.timeout * 1000 })
      log(`session ${plan.index + 1}/${plans.length} ${row.scenario} ${row.id} ${row.ms} ms${row.problems.length ? " PROBLEMS: " + row.problems.join("; ") : ""}`)
      return row
    })
    // experimental v2 sessions, after the v1 ones (same lanes rule)
    const v2plans = Array.from({ length: opts.v2Sessions }, (_, i) => ({ index: i, scenario: scenarioFor(i, opts.scenarios), directory: projects[i % projects.length] }))
    const v2rows = await lanes(v2plans, (p) => p.directory, async (plan) => {
      const row = await runSessionV2({ api, ...plan, timeoutMs: opts.timeout * 1000 })
      log(`v2 session ${plan.index + 1}/${v2plans.length} ${row.scenario} ${row.id} ${row.ms} ms${row.problems.length ? " PROBLEMS: " + row.problems.join("; ") : ""}`)
      return row
    })
    T.driven = Date.now()
    if (!(await waitIdle(api, projects))) manifest.problems.push("some sessions still busy after 30 s")
    await sleep(500) // let title updates land
    const exported = await exportSessions(api, projects, path.join(opts.out, "sessions"), new Set(v2rows.map((r) => r.id)))
    manifest.sessions = exported.map((e) => ({ ...rows.find((r) => r.id === e.id), ...e }))
    for (const r of [...rows, ...v2rows]) for (const p of r.problems) manifest.problems.push(`${r.id}: ${p}`)
    if (v2rows.length) {
      const ex2 = await exportSessionsV2(api, v2rows.map((r) => r.id), path.join(opts.out, "sessions-v2"))
      manifest.sessionsV2 = ex2.map((e) => ({ ...v2rows.find((r) => r.id === e.id), ...e }))
    }
  } finally {
    const s0 = Date.now()
    const exit = oc ? await oc.stop() : null
    T.stopMs = Date.now() - s0
    await mock.close()
    reqLog.end()
    manifest.opencodeExit = exit
  }
  T.stopped = Date.now()

  // The DB. OpenCode leaves its write-ahead log (opencode.db-wal) behind on
  // SIGTERM, so fold it into opencode.db with OpenCode's own `db` command
  // (no sqlite3 CLI needed); if that fails, copy the -wal/-shm files as well.
  const dataDir = path.join(opts.work, "data", "opencode")
  const ck = spawnSync(bin, ["db", "PRAGMA wal_checkpoint(TRUNCATE)", "--format", "json"], {
    cwd: projects[0], env, encoding: "utf8", timeout: 60000,
  })
  const walLeft = () => { try { return fs.statSync(path.join(dataDir, "opencode.db-wal")).size } catch { return 0 } }
  if (ck.status !== 0 || walLeft() > 0) manifest.problems.push(`WAL checkpoint incomplete (exit ${ck.status}); copied -wal/-shm too`)
  for (const suffix of ["", "-wal", "-shm"]) {
    const f = path.join(dataDir, "opencode.db" + suffix)
    if (fs.existsSync(f) && (suffix === "" || walLeft() > 0)) fs.copyFileSync(f, path.join(opts.out, "opencode.db" + suffix))
  }
  manifest.mockRequests = mock.requests.length
  manifest.timingsMs = {
    install: T.installed - T.start,
    serverStart: (T.serverUp ?? T.stopped) - T.installed,
    sessions: (T.driven ?? T.stopped) - (T.serverUp ?? T.stopped),
    perTopLevelSession: T.driven ? Math.round((T.driven - T.serverUp) / opts.sessions) : null,
    stop: T.stopMs,
    total: T.stopped - T.start,
  }
  fs.writeFileSync(path.join(opts.out, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n")
  if (!opts.keepWork) fs.rmSync(opts.work, { recursive: true, force: true })
  log(`done: ${manifest.sessions.length} sessions (incl. children) in ${manifest.timingsMs.total} ms -> ${opts.out}`)
  if (manifest.problems.length) log(`problems:\n  ${manifest.problems.join("\n  ")}`)
  return manifest
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const m = await generate(parseArgs(process.argv.slice(2)))
    process.exitCode = m.problems.length ? 1 : 0
  } catch (err) {
    console.error("[generate] error:", err?.message ?? err)
    process.exitCode = 1
  }
}
