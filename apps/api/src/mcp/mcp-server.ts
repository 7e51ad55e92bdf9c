import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { AppDeps } from '../deps.js'
import { isAppError } from '../errors.js'
import { sessionRead } from './mcp-read.js'
import { storageReport } from './mcp-report.js'
import { sessionSearch, type McpAnswer } from './mcp-search.js'
import { clipBytes } from './mcp-text.js'
import { MCP_ANSWER_BYTES, sessionReadShape, sessionSearchShape, storageReportShape } from './mcp.schema.js'

/** What the MCP tools read: OpenCode's file and the search index. Nothing here writes. */
export type McpDeps = Pick<AppDeps, 'opencode' | 'searchIndex'>

const VERSION = '0.1.0'

/**
 * An expected failure answers as the tRPC procedures do, with its error code first
 * (`not_found: …`); anything else is "internal", never a stack trace.
 */
function answer(run: () => McpAnswer): CallToolResult {
  try {
    const { text, data } = run()
    return { content: [{ type: 'text', text: clipBytes(text, MCP_ANSWER_BYTES) }], structuredContent: data }
  } catch (error) {
    const text = isAppError(error) ? `${error.code}: ${error.message}` : 'internal: the tool failed; see Loupe\'s log.'
    return { content: [{ type: 'text', text: clipBytes(text, 4096) }], isError: true, structuredContent: { error: isAppError(error) ? error.code : 'internal' } }
  }
}

/** A fresh MCP server over the same services as the tRPC procedures, read-only. */
export function createMcpServer(deps: McpDeps): McpServer {
  const server = new McpServer({ name: 'loupe', version: VERSION }, { capabilities: { tools: {} } })
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
  server.registerTool('session_search', {
    title: 'Search OpenCode history',
    description: 'Ranked full-text search over every OpenCode session on this machine (text, reasoning, tool calls and outputs, user prompts). ' +
      'Each hit gives sessionID and messageID for session_read, the session title, its directory, the time and a snippet with matches in «». ' +
      'At most 32 KB per answer; pass the returned cursor for more.',
    inputSchema: sessionSearchShape,
    annotations: readOnly,
  }, (args) => answer(() => sessionSearch(deps, args)))
  server.registerTool('session_read', {
    title: 'Read an OpenCode session',
    description: 'A message of an OpenCode session and its neighbours as readable text (tool calls summarised, outputs clipped). ' +
      'Give sessionID and messageID from a session_search hit. At most 32 KB per answer; pass the returned cursor to read on.',
    inputSchema: sessionReadShape,
    annotations: readOnly,
  }, (args) => answer(() => sessionRead(deps, args)))
  server.registerTool('storage_report', {
    title: 'OpenCode storage report',
    description: 'How big the OpenCode database is, how many sessions it holds and which recent sessions take the most bytes.',
    inputSchema: storageReportShape,
    annotations: readOnly,
  }, () => answer(() => storageReport(deps)))
  return server
}
