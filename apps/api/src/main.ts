import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp } from './app.js'
import { ConfigError, DEFAULT_PORT, loadConfig, type Config } from './config.js'
import { createAppDeps } from './app-deps.js'
import { isAppError } from './errors.js'
import { hostNamesFor } from './http/host-guard.js'
import { SERVER_LIMITS } from './http/server-limits.js'
import { systemClock } from './lib/clock.js'
import { configureServerHeap } from './lib/server-heap.js'
import { locateOpenCodeDb } from './store/locate-db.js'
import { openOpenCode } from './store/open-opencode.js'

const say = (line: string) => process.stdout.write(line + '\n')

function lanAddresses(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::') return []
  return Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .filter((a) => !a.internal && a.family === 'IPv4')
    .map((a) => a.address)
}

async function chooseDatabase(config: Config): Promise<{ path: string; demo: boolean }> {
  if (config.db) return { path: config.db, demo: false }
  const located = locateOpenCodeDb(config.locateEnv)
  if (located) {
    say(`Opening your OpenCode database (${located.source}): ${located.path}`)
    return { path: located.path, demo: false }
  }
  const demo = path.join(config.dataDir, 'demo', 'opencode.db')
  if (!fs.existsSync(demo)) {
    say('No OpenCode database found; generating a demo database so you can look around…')
    fs.mkdirSync(path.dirname(demo), { recursive: true })
    // The generator is a lab package: loaded only on this path, never for a real database.
    const { generateDemoDb } = await import('@loupe/demo')
    const made = generateDemoDb(demo, { now: Date.now() })
    say(`  ${made.sessions} sessions, ${made.messages} messages, ${made.parts} parts`)
  }
  say(`Opening the DEMO database ${demo} (pass --db PATH to open a real one).`)
  return { path: demo, demo: true }
}

function openBrowser(url: string) {
  const command = process.platform === 'darwin' ? 'open' : 'xdg-open'
  try {
    spawn(command, [url], { detached: true, stdio: 'ignore' }).on('error', () => {}).unref()
  } catch {
    /* no browser here; the URL is printed */
  }
}

async function main() {
  const collectGarbage = configureServerHeap()
  const config = loadConfig(process.argv.slice(2), process.env)
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 })
  const { path: dbPath, demo } = await chooseDatabase(config)
  const opencode = openOpenCode(dbPath)
  if (!opencode.layout.readable) say(`Warning: ${opencode.layout.problems.join('; ')}`)
  const lan = lanAddresses(config.host)
  const deps = await createAppDeps({
    config: {
      host: config.host,
      port: config.port ?? DEFAULT_PORT,
      token: config.token ?? randomBytes(24).toString('base64url'),
      dataDir: config.dataDir,
      liveWindowMs: config.liveWindowMinutes * 60_000,
      allowedHostNames: hostNamesFor(config.host, lan),
      lanAddresses: lan,
      webRoot: fileURLToPath(new URL('../../web/dist', import.meta.url)),
      demo,
      serverLimits: SERVER_LIMITS,
    },
    opencode,
    clock: systemClock,
    opencodeServer: { url: config.opencodeUrl, username: config.opencodeUsername, password: config.opencodePassword },
    gitEnv: config.gitEnv,
    searchIndex: { mode: 'worker' },
    collectGarbage,
  })
  const search = deps.searchIndex.status()
  if (search.state === 'unavailable') say(`Search: ${search.message} Searches scan instead.`)
  const app = await buildApp(deps, { logger: false })
  // The session list's totals read every row's size once, in proportion to the file: done before
  // listening, so the first page does not wait on it. A failure here shows on that page instead.
  if (opencode.layout.readable) {
    try {
      opencode.db.read(() => opencode.stores.sumSessions(opencode.db, { includeArchived: true, rootsOnly: false }))
    } catch {
      // The list computes them again and reports what went wrong.
    }
  }
  let address: string
  try {
    address = await app.listen({ host: config.host, port: deps.config.port })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || config.port !== null) throw error
    address = await app.listen({ host: config.host, port: 0 })
  }
  deps.config.port = Number(new URL(address).port)
  const local = `http://127.0.0.1:${deps.config.port}/?token=${deps.config.token}`
  say(`\nLoupe is running. Open:\n  ${local}`)
  for (const ip of lan) say(`  http://${ip}:${deps.config.port}/?token=${deps.config.token}   (LAN)`)
  if (config.open) openBrowser(local)
  // `npm start` passes on a signal that the terminal also sent here (Ctrl-C, closing the window), so
  // one can arrive twice: a repeat within two seconds is that copy; a later one stops at once.
  let stoppingSince: number | null = null
  const stop = (signal: NodeJS.Signals) => {
    if (stoppingSince !== null) {
      if (performance.now() - stoppingSince > 2000) process.exit(128 + (os.constants.signals[signal] ?? 0))
      return
    }
    stoppingSince = performance.now()
    // After SIGHUP the terminal may be gone: nothing more is written to it.
    if (signal === 'SIGINT') say('\nStopping Loupe… (Ctrl-C again after 2 s quits at once)')
    void app.close().finally(() => process.exit(0))
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop)
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(error.message + '\n')
    process.exit(error.exitCode)
  }
  process.stderr.write(`Loupe could not start: ${isAppError(error) ? error.message : (error as Error).stack ?? String(error)}\n`)
  process.exit(1)
})
