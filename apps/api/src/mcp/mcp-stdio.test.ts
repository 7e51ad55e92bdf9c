import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { copyDb, realFixture, tempDir } from '../../test/harness.js'
import { isolatedChildEnv, toolAnswer } from '../../test/mcp-client.js'

const REPO = fileURLToPath(new URL('../../../../', import.meta.url))

describe('MCP over stdio (mcp-main.ts, as OpenCode runs a local MCP server)', () => {
  const dir = tempDir()
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  /** The entry as a child process with its own HOME and XDG dirs: it must never find a real database. */
  const transport = (args: string[]) => new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'apps/api/src/mcp-main.ts', ...args],
    cwd: REPO,
    env: isolatedChildEnv(dir),
    stderr: 'pipe',
  })

  it('answers session_search and session_read, then exits when the client goes', async () => {
    const db = copyDb((await realFixture()).db, fs.mkdtempSync(path.join(dir, 'db-')))
    const client = new Client({ name: 'loupe-test', version: '0' })
    const t = transport(['--db', db, '--data-dir', path.join(dir, 'loupe')])
    await client.connect(t)
    // While its index builds, the server scans: a page may end before the first message hit.
    let first: { sessionID: string; messageID: string | null } | undefined
    let cursor: string | null = null
    for (let page = 0; !first && page < 20; page++) {
      const hits = toolAnswer(await client.callTool({ name: 'session_search', arguments: { query: 'stdin', limit: 5, ...(cursor ? { cursor } : {}) } }))
      expect(hits.isError).toBe(false)
      first = (hits.data.hits as Array<{ sessionID: string; messageID: string | null }>).find((h) => h.messageID)
      cursor = hits.data.cursor as string | null
      if (!cursor) break
    }
    expect(first).toBeDefined()
    const read = toolAnswer(await client.callTool({ name: 'session_read', arguments: { sessionID: first!.sessionID, messageID: first!.messageID } }))
    expect(read.text).toContain(`>>> --- `)
    expect(read.text).toContain(first!.messageID!)
    const pid = t.pid!
    let stderr = ''
    t.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
    await client.close()
    await expect.poll(() => { try { process.kill(pid, 0); return true } catch { return false } }, { timeout: 10_000 }).toBe(false)
    expect(stderr).not.toMatch(/Error|exceeded/)
  })

  it('serves from a read-only (0444) file and writes nothing to it or its WAL', async () => {
    const source = copyDb((await realFixture()).db, fs.mkdtempSync(path.join(dir, 'rw-')))
    // Copied while a writer holds frames in the WAL: a writable connection's close would checkpoint
    // them into the main file, so an unchanged main file shows the server opened it read-only.
    const writer = new Database(source)
    writer.pragma('journal_mode = WAL')
    writer.pragma('wal_autocheckpoint = 0')
    writer.prepare(`UPDATE session SET title = title || ' (wal)' WHERE id = (SELECT id FROM session LIMIT 1)`).run()
    const db = path.join(fs.mkdtempSync(path.join(dir, 'ro-')), 'opencode.db')
    fs.copyFileSync(source, db)
    fs.copyFileSync(`${source}-wal`, `${db}-wal`)
    writer.close()
    fs.chmodSync(db, 0o444)
    fs.chmodSync(`${db}-wal`, 0o444)
    const digest = (file: string) => (fs.existsSync(file) ? createHash('sha256').update(fs.readFileSync(file)).digest('hex') : null)
    const before = { db: digest(db), wal: digest(`${db}-wal`), mtime: fs.statSync(db).mtimeMs }
    expect(before.wal).not.toBeNull()

    const client = new Client({ name: 'loupe-test', version: '0' })
    const t = transport(['--db', db, '--data-dir', path.join(dir, 'loupe-ro')])
    await client.connect(t)
    const report = toolAnswer(await client.callTool({ name: 'storage_report', arguments: {} }))
    expect(report.isError).toBe(false)
    const hits = toolAnswer(await client.callTool({ name: 'session_search', arguments: { query: '(wal)', limit: 5 } }))
    expect(hits.isError).toBe(false)
    const pid = t.pid!
    await client.close()
    await expect.poll(() => { try { process.kill(pid, 0); return true } catch { return false } }, { timeout: 10_000 }).toBe(false)
    expect({ db: digest(db), wal: digest(`${db}-wal`), mtime: fs.statSync(db).mtimeMs }).toEqual(before)
  })

  it('refuses to start without a database and says why on stderr', async () => {
    const t = transport(['--data-dir', path.join(dir, 'loupe2')])
    let stderr = ''
    const client = new Client({ name: 'loupe-test', version: '0' })
    const closed = new Promise<void>((resolve) => (t.onclose = () => resolve()))
    const connecting = client.connect(t).catch((e: Error) => e)
    t.stderr?.on('data', (d: Buffer) => (stderr += d.toString()))
    await closed
    expect(await connecting).toBeInstanceOf(Error)
    expect(stderr).toMatch(/No OpenCode database found: pass --db/)
  })
})
