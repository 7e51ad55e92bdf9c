import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { createMcpServer, type McpDeps } from '../src/mcp/mcp-server.js'

export interface McpToolAnswer {
  text: string
  isError: boolean
  data: Record<string, unknown>
  bytes: number
}

/** The text and structured data of a tool result, as an MCP client sees them. */
export function toolAnswer(result: unknown): McpToolAnswer {
  const r = result as CallToolResult
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
  return { text, isError: !!r.isError, data: (r.structuredContent ?? {}) as Record<string, unknown>, bytes: Buffer.byteLength(text) }
}

/** An SDK client connected in memory to a fresh Loupe MCP server over `deps` (the real tools, no transport in between). */
export async function connectMcp(deps: McpDeps) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const server = createMcpServer(deps)
  await server.connect(serverSide)
  const client = new Client({ name: 'loupe-test', version: '0' })
  await client.connect(clientSide)
  return {
    client,
    call: async (name: string, args: Record<string, unknown>) => toolAnswer(await client.callTool({ name, arguments: args })),
    close: async () => {
      await client.close()
      await server.close()
    },
  }
}

/** An environment for a Loupe child process: this PATH, and HOME and XDG dirs under `dir` only. */
export const isolatedChildEnv = (dir: string): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: `${dir}/home`,
  XDG_DATA_HOME: `${dir}/xdg-data`,
  XDG_CONFIG_HOME: `${dir}/xdg-config`,
  XDG_STATE_HOME: `${dir}/xdg-state`,
  XDG_CACHE_HOME: `${dir}/xdg-cache`,
})
