import fs from 'node:fs'
import { ConfigError, loadConfig } from './config.js'
import { isAppError } from './errors.js'
import { runMcpStdio } from './mcp/mcp-stdio.js'
import { locateOpenCodeDb } from './store/locate-db.js'

/**
 * `loupe mcp [--db PATH] [--data-dir DIR]`: the MCP tools over stdio. Like main.ts this alone reads
 * env and flags; stdout carries only the protocol, so every word for a person goes to stderr.
 */
async function mcpMain() {
  const config = loadConfig(process.argv.slice(2).filter((a) => a !== 'mcp'), process.env)
  const located = config.db ? { path: config.db } : locateOpenCodeDb(config.locateEnv)
  if (!located || !fs.existsSync(located.path)) {
    throw new ConfigError('No OpenCode database found: pass --db with the path to opencode.db.', 2)
  }
  const run = await runMcpStdio({ dbPath: located.path, dataDir: config.dataDir })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void run.close())
  await run.closed
  process.exit(0)
}

mcpMain().catch((error: unknown) => {
  const message = error instanceof ConfigError || isAppError(error) ? error.message : (error as Error).stack ?? String(error)
  process.stderr.write(`Loupe MCP could not start: ${message}\n`)
  process.exit(error instanceof ConfigError ? error.exitCode : 1)
})
