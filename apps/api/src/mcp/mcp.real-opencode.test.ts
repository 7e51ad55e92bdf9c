import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { generate } from '../../../../tools/opencode-real/generate.mjs'
import { freePort, repoRoot, startLoupeServer, type LoupeServerProcess } from '../../../../tools/loupe-server.mjs'
import { tempDir } from '../../test/harness.js'
import { opencodeRealCache } from '../../test/search-fixtures.js'

const WORD = 'zephyrquokka'
const TOKEN = 'mcp-remote-token-for-this-test-only'

interface ToolRow { tool: string; status: string; input: Record<string, unknown>; output: string }

/** The loupe_* tool calls OpenCode stored in its own database, in order. */
function loupeCalls(db: string): ToolRow[] {
  const raw = new Database(db, { readonly: true })
  try {
    const rows = raw.prepare(`SELECT data FROM part WHERE json_extract(data, '$.type') = 'tool' AND json_extract(data, '$.tool') LIKE 'loupe_%' ORDER BY time_created, id`).all() as Array<{ data: string }>
    return rows.map((r) => {
      const part = JSON.parse(r.data) as { tool: string; state: { status: string; input: Record<string, unknown>; output?: string; error?: string } }
      return { tool: part.tool, status: part.state.status, input: part.state.input, output: part.state.output ?? part.state.error ?? '' }
    })
  } finally {
    raw.close()
  }
}

/** Run the `mcp` scenario set with Loupe configured as OpenCode's MCP server `loupe`. */
async function runScenario(dir: string, mcpEntry: (dbPath: string) => Record<string, unknown>, beforeRecall?: (dbPath: string) => Promise<void>) {
  const work = path.join(dir, 'work')
  const dbPath = path.join(work, 'data', 'opencode', 'opencode.db')
  const manifest = await generate({
    out: path.join(dir, 'out'), work, sessions: 2, projects: 2, scenarios: 'mcp', cache: opencodeRealCache(), quiet: true, keepWork: true,
    mcp: { loupe: mcpEntry(dbPath) },
    beforeSession: async ({ index }: { index: number }) => (index === 1 ? beforeRecall?.(dbPath) : undefined),
  }) as { sessions: Array<{ id: string; scenario?: string }>; problems: string[] }
  const earlier = manifest.sessions.find((s) => s.scenario === 'mcp-earlier')!
  return { manifest, earlier, calls: loupeCalls(path.join(dir, 'out', 'opencode.db')) }
}

function expectRecall(result: Awaited<ReturnType<typeof runScenario>>) {
  expect(result.manifest.problems).toEqual([])
  const [search, read] = result.calls
  expect(result.calls.map((c) => `${c.tool}:${c.status}`)).toEqual(['loupe_session_search:completed', 'loupe_session_read:completed'])
  expect(search!.output).toContain(`sessionID=${result.earlier.id}`)
  expect(search!.output).toContain(`«${WORD}»`)
  // The scripted model passed on the ids of the first hit, as an agent would.
  expect(read!.input.sessionID).toBe(result.earlier.id)
  expect(read!.output).toContain(`Session ${result.earlier.id}`)
  expect(read!.output).toContain(`build flag: ${WORD}`)
}

describe('real OpenCode calls Loupe through MCP', () => {
  const dirs: string[] = []
  let server: LoupeServerProcess | undefined
  afterAll(async () => {
    await server?.stop()
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  })

  it('as a local command (stdio)', async () => {
    const dir = tempDir('loupe-mcp-local-')
    dirs.push(dir)
    const loader = pathToFileURL(path.join(repoRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href
    const result = await runScenario(dir, (dbPath) => ({
      type: 'local',
      command: [process.execPath, '--import', loader, path.join(repoRoot, 'apps', 'api', 'src', 'mcp-main.ts'), '--db', dbPath, '--data-dir', path.join(dir, 'loupe')],
      timeout: 30_000,
    }))
    expectRecall(result)
  }, 240_000)

  it('as a remote URL with the owner token', async () => {
    const dir = tempDir('loupe-mcp-remote-')
    dirs.push(dir)
    const port = await freePort()
    const result = await runScenario(dir, () => ({
      type: 'remote', url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: `Bearer ${TOKEN}` }, oauth: false, timeout: 30_000,
    }), async (dbPath) => {
      server = await startLoupeServer({ db: dbPath, dir: path.join(dir, 'loupe-server'), token: TOKEN, port })
    })
    expectRecall(result)
  }, 240_000)
})
