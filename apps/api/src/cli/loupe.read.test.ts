import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyDb, realFixture, tempDir } from '../../test/harness.js'
import { runLoupe } from '../../test/run-loupe.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

async function workDir() {
  const dir = tempDir('loupe-cli-read-')
  dirs.push(dir)
  copyDb((await realFixture()).db, dir)
  return dir
}

const lines = (stdout: string) => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>)
const db = ['--db', 'opencode.db']

describe('loupe sessions', () => {
  it('prints one JSON line per session, newest first, and a table for people', async () => {
    const dir = await workDir()
    const json = await runLoupe(dir, ['sessions', ...db, '--json'])
    expect(json.code).toBe(0)
    const sessions = lines(json.stdout)
    expect(sessions.length).toBeGreaterThan(3)
    expect(new Set(sessions.map((s) => s.id)).size).toBe(sessions.length)
    expect(Object.keys(sessions[0]!)).toEqual(expect.arrayContaining(['id', 'storage', 'title', 'directory', 'timeUpdated', 'stats']))
    const updated = sessions.map((s) => s.timeUpdated as number)
    expect(updated).toEqual([...updated].sort((a, b) => b - a))
    expect(lines((await runLoupe(dir, ['sessions', ...db, '--json', '--limit', '2'])).stdout).map((s) => s.id)).toEqual(sessions.slice(0, 2).map((s) => s.id))

    const table = await runLoupe(dir, ['sessions', ...db])
    expect(table.code).toBe(0)
    expect(table.stdout).toContain(`${sessions.length} of ${sessions.length} sessions`)
    expect(table.stdout).toContain(sessions[0]!.id)
  })

  it('refuses an unknown sort with exit 2 and the reason on stderr; a bad limit is an error (exit 1)', async () => {
    const dir = await workDir()
    const refused = await runLoupe(dir, ['sessions', ...db, '--json', '--sort', 'bogus'])
    expect(refused.code).toBe(2)
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 'refused', reason: 'invalid_input' })
    expect(refused.stderr).toContain('refused (invalid_input)')
    const bad = await runLoupe(dir, ['sessions', ...db, '--limit', '0'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toContain('--limit takes a whole number')
  })
})

describe('loupe search', () => {
  it('builds the index with progress first, then answers ranked hits as JSON lines; a second search only catches up', async () => {
    const dir = await workDir()
    const first = await runLoupe(dir, ['search', 'stdin', ...db, '--json', '--limit', '5'])
    expect(first.code).toBe(0)
    expect(first.stderr).toContain('index: building the search index')
    expect(first.stderr).toMatch(/search: \d+ hits? ranked by the full-text index/)
    const hits = lines(first.stdout)
    expect(hits.length).toBeGreaterThan(0)
    expect(hits.length).toBeLessThanOrEqual(5)
    for (const [i, hit] of hits.entries()) {
      expect(hit).toMatchObject({ rank: i + 1, mode: 'index', sessionID: expect.stringMatching(/^ses_/) })
      expect(hit.snippetText.toLowerCase()).toContain('«stdin»')
    }
    const again = await runLoupe(dir, ['search', 'stdin', ...db, '--json', '--limit', '5'])
    expect(again.stderr).toContain('index: catching up')
    expect(lines(again.stdout).map((h) => h.sessionID)).toEqual(hits.map((h) => h.sessionID))

    const scoped = lines((await runLoupe(dir, ['search', 'stdin', ...db, '--json', '--scope', hits[0]!.sessionID, '--kind', 'text,user'])).stdout)
    expect(scoped.length).toBeGreaterThan(0)
    expect(scoped.every((h) => h.sessionID === hits[0]!.sessionID && ['text', 'user'].includes(h.kind))).toBe(true)
    // A project directory named relative to where loupe runs, as a shell user types it.
    const relative = path.relative(dir, hits[0]!.sessionDirectory)
    const inProject = lines((await runLoupe(dir, ['search', 'stdin', ...db, '--json', '--scope', relative.startsWith('.') ? relative : `./${relative}`])).stdout)
    expect(inProject.length).toBeGreaterThan(0)
    expect(inProject.every((h) => h.sessionDirectory === hits[0]!.sessionDirectory)).toBe(true)
    const table = await runLoupe(dir, ['search', 'stdin', ...db, '--limit', '3'])
    expect(table.stdout).toContain(hits[0]!.sessionID)
    expect(table.stdout).toContain('«stdin»')
  })

  it('answers from the literal scan with --no-build and says so', async () => {
    const dir = await workDir()
    const run = await runLoupe(dir, ['search', 'stdin', ...db, '--json', '--no-build'])
    expect(run.code).toBe(0)
    expect(run.stderr).not.toContain('index: building')
    expect(run.stderr).toContain('from the literal scan')
    const hits = lines(run.stdout)
    expect(hits.length).toBeGreaterThan(0)
    expect(hits.every((h) => h.mode === 'scan')).toBe(true)
  })

  it('refuses an unknown session scope (exit 2) and a bad kind (exit 2); a bad date or no query is an error (exit 1)', async () => {
    const dir = await workDir()
    const scope = await runLoupe(dir, ['search', 'stdin', ...db, '--json', '--scope', 'ses_doesnotexist'])
    expect(scope.code).toBe(2)
    expect(JSON.parse(scope.stdout)).toMatchObject({ status: 'refused', reason: 'not_found' })
    expect(scope.stderr).toContain('refused (not_found)')
    const kind = await runLoupe(dir, ['search', 'stdin', ...db, '--kind', 'images'])
    expect(kind.code).toBe(2)
    expect(kind.stderr).toContain('refused (invalid_input)')
    expect((await runLoupe(dir, ['search', 'stdin', ...db, '--since', 'yesterday'])).code).toBe(1)
    const none = await runLoupe(dir, ['search', ...db, '--json'])
    expect(none.code).toBe(1)
    expect(JSON.parse(none.stdout)).toMatchObject({ status: 'error', message: 'search needs a QUERY' })
    expect(fs.existsSync(path.join(dir, 'xdg-data', 'loupe'))).toBe(true)
  })
})

describe('loupe show', () => {
  it('prints a hit’s message and its neighbours as session_read does, as text or one JSON object', async () => {
    const dir = await workDir()
    const [hit] = lines((await runLoupe(dir, ['search', 'stdin', ...db, '--json', '--kind', 'text'])).stdout)
    expect(hit).toBeDefined()
    const json = await runLoupe(dir, ['show', hit!.sessionID, '--message', hit!.messageID, ...db, '--json'])
    expect(json.code).toBe(0)
    const out = JSON.parse(json.stdout)
    expect(out).toMatchObject({ status: 'done', session: { id: hit!.sessionID } })
    expect(out.messages).toContain(hit!.messageID)
    expect(out.text).toMatch(new RegExp(`>>> --- (user|assistant) message ${hit!.messageID}`))
    const text = await runLoupe(dir, ['show', hit!.sessionID, ...db])
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(new RegExp(`^Session ${hit!.sessionID} — `))
  })

  it('refuses an unknown session or message and a malformed id with exit 2', async () => {
    const dir = await workDir()
    const [session] = lines((await runLoupe(dir, ['sessions', ...db, '--json', '--limit', '1'])).stdout)
    for (const args of [['show', 'ses_doesnotexist'], ['show', session!.id, '--message', 'msg_doesnotexist'], ['show', '../etc/passwd']]) {
      const run = await runLoupe(dir, [...args, ...db, '--json'])
      expect(run.code).toBe(2)
      expect(JSON.parse(run.stdout).status).toBe('refused')
      expect(run.stderr).toMatch(/refused \((not_found|invalid_input)\)/)
    }
    expect((await runLoupe(dir, ['show', ...db])).code).toBe(1)
    expect((await runLoupe(dir, ['show', '--help'])).stdout).toContain('Usage: loupe show SESSION')
  })
})
