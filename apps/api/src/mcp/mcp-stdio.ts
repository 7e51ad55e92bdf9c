import fs from 'node:fs'
import type { Readable, Writable } from 'node:stream'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { createSearchIndex } from '../index/search-index.js'
import { createEventBus } from '../lib/event-bus.js'
import { openOpenCode } from '../store/open-opencode.js'
import { createMcpServer } from './mcp-server.js'

export interface McpStdioOptions {
  /** OpenCode's database; the caller located it (flags, OPENCODE_DB, XDG) the way main.ts does. */
  dbPath: string
  /** Loupe's data dir: the search index sidecar lives there. */
  dataDir: string
  input?: Readable
  output?: Writable
  /** 'worker' (default) follows OpenCode's writes; 'manual' builds the index once, for tests. */
  indexMode?: 'worker' | 'manual'
}

export interface McpStdioRun {
  /** Resolves when the client closed stdin or close() was called; everything opened is closed. */
  closed: Promise<void>
  close(): Promise<void>
}

/**
 * `loupe mcp`: the MCP tools on stdin/stdout for OpenCode's `local` entry. Nothing but the
 * protocol is written to `output`; what a person should read goes to stderr.
 */
export async function runMcpStdio(options: McpStdioOptions): Promise<McpStdioRun> {
  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
  // The MCP tools only read: a read-only connection cannot write OpenCode's file, even by a bug.
  const opencode = openOpenCode(options.dbPath, { readonly: true })
  const searchIndex = createSearchIndex({ opencode, dataDir: options.dataDir, events: createEventBus(), mode: options.indexMode ?? 'worker' })
  if (options.indexMode === 'manual') searchIndex.runUntilIdle()
  const server = createMcpServer({ opencode, searchIndex })
  const transport = new StdioServerTransport(options.input, options.output)
  let finish: () => void = () => {}
  const closed = new Promise<void>((resolve) => (finish = resolve))
  let closing: Promise<void> | null = null
  // Deferred a tick: closing the server closes the transport, whose onclose calls this again.
  const close = () => (closing ??= Promise.resolve().then(async () => {
    await server.close()
    await searchIndex.close()
    opencode.db.close()
    finish()
  }))
  transport.onclose = () => void close()
  ;(options.input ?? process.stdin).once('end', () => void close())
  await server.connect(transport)
  return { closed, close }
}
