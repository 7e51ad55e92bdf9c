// MCP search round trips: session_search over stdio (mcp-main.ts as OpenCode starts it) and over
// Streamable HTTP at /mcp, beside history.search over tRPC on the same server, same queries, on a
// small demo database (20,000 parts) with the index ready. Prints numbers; asserts nothing.
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { createTestDeps, startTestServer, TEST_TOKEN } from '@loupe/api/testing'
import { ensureBenchDb, fmt, measure } from './bench-db.js'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const bench = ensureBenchDb(20_000)
const deps = await createTestDeps(bench.file)
deps.searchIndex.runUntilIdle()
const server = await startTestServer(deps)
const QUERIES = ['error', 'timeout', 'auth token', 'build*']
let turn = 0
const nextQuery = () => QUERIES[turn++ % QUERIES.length]!

const trpc = async () => {
  const input = encodeURIComponent(JSON.stringify({ query: nextQuery(), limit: 10 }))
  const res = await fetch(`${server.url}/trpc/history.search?input=${input}`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } })
  if (!res.ok) throw new Error(`history.search: ${res.status}`)
  await res.json()
}

const http = new Client({ name: 'bench', version: '0' })
await http.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TEST_TOKEN}` } } }))

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-mcp-bench-'))
const stdio = new Client({ name: 'bench', version: '0' })
const home = path.join(dir, 'home')
await stdio.connect(new StdioClientTransport({
  command: process.execPath,
  args: ['--import', 'tsx', 'apps/api/src/mcp-main.ts', '--db', deps.opencode.path, '--data-dir', path.join(dir, 'loupe')],
  cwd: repo,
  env: { PATH: process.env.PATH ?? '', HOME: home, XDG_DATA_HOME: path.join(dir, 'xdg') },
}))
const mcpSearch = (client: Client) => async () => {
  const result = await client.callTool({ name: 'session_search', arguments: { query: nextQuery(), limit: 10 } })
  if (result.isError) throw new Error(JSON.stringify(result.content))
  return (result.structuredContent as { mode: string }).mode
}
// The stdio server builds its own index in its worker: wait until it answers from it.
const t0 = performance.now()
while ((await mcpSearch(stdio)()) !== 'index' && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 250))

console.log(`database: ${(fs.statSync(bench.file).size / 1e6).toFixed(0)} MB, ${bench.sessions} sessions, ${bench.parts} parts (${os.cpus().length} cores); limit 10, queries ${QUERIES.join(' | ')}`)
console.log(`${'round trip'.padEnd(46)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'max ms'.padStart(8)}`)
for (const [name, fn] of [
  ['history.search over tRPC (HTTP)', trpc],
  ['session_search over MCP Streamable HTTP', mcpSearch(http)],
  ['session_search over MCP stdio', mcpSearch(stdio)],
] as const) {
  const r = await measure(fn, 40)
  console.log(`${name.padEnd(46)}${fmt(r.p50)}${fmt(r.p95)}${fmt(r.max)}`)
}
await stdio.close()
await http.close()
await server.close()
deps.cleanup()
fs.rmSync(dir, { recursive: true, force: true })
