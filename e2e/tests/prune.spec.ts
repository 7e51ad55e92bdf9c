import type { Page } from '@playwright/test'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureRealFixture } from '../../tools/fixtures.mjs'
import { startLoupeServer } from '../../tools/loupe-server.mjs'
import { ensureOpencode, isolatedEnv, startOpencode, writeConfig } from '../../tools/opencode-real/generate.mjs'
import { expect, snapshot, test } from '../support/test.js'

type Part = { id: string; type: string; tool?: string }
type Exported = { info: { id: string; role: string }; parts: Part[] }

/**
 * Pruning in Chromium on its own Loupe and its own copy of the real fixture (this spec changes
 * the database, so it never shares the run's server), then OpenCode itself reads the result.
 */
test.describe('prune', () => {
  let server: Awaited<ReturnType<typeof startLoupeServer>>
  let dir: string
  let db: string
  const removed: string[] = []

  test.beforeAll(async () => {
    const fixture = await ensureRealFixture()
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-prune-'))
    db = path.join(dir, 'opencode.db')
    fs.copyFileSync(path.join(fixture, 'opencode.db'), db)
    server = await startLoupeServer({ db, dir, token: 'prune-token-at-least-24-chars' })
  })
  test.afterAll(async () => {
    await server?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  const open = async (page: Page, title: string) => {
    await page.goto(`${server.baseURL}/sessions?token=${server.token}`)
    await page.locator('.session-row', { hasText: title }).click()
    await expect(page.locator('h1.session-name')).toHaveText(title)
  }

  test('selects parts across messages, previews them, removes them, and every open tab follows', async ({ page, context }, testInfo) => {
    await open(page, 'Repository tour')
    const other = await context.newPage()
    await open(other, 'Repository tour')

    // What the session would save is shown before anything happens.
    const bar = page.getByRole('region', { name: 'Clean up technical parts' })
    await expect(bar).toContainText('tool calls')
    await expect(bar).toContainText('tokens')
    await snapshot(page, testInfo, 'prune-01-savings')

    // The exact stored size, from each tab's header (it re-reads sessions.get after a prune).
    const stored = (tab: Page) => tab.locator('.session-meta .session-bytes')
    const storedBefore = await stored(other).getAttribute('title')
    expect(storedBefore).toMatch(/^[\d,]+ bytes stored/)

    const boxes = page.locator('.prune-check input')
    await expect(boxes.first()).toBeVisible()
    const before = await page.locator('.tool-call').count()
    // A reasoning block, then shift-click two parts further on: a range across the first messages.
    await boxes.nth(0).click()
    await boxes.nth(2).click({ modifiers: ['Shift'] })
    await expect(bar).toContainText('3 parts selected')
    await snapshot(page, testInfo, 'prune-02-selected')

    await bar.getByRole('button', { name: 'Review removal…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove technical parts' })
    await expect(dialog.locator('.prune-parts tbody tr')).toHaveCount(3)
    await expect(dialog).toContainText('tokens')
    await snapshot(page, testInfo, 'prune-03-review')
    removed.push(...(await dialog.locator('.prune-part-name').allInnerTexts()))

    await dialog.getByRole('button', { name: 'Remove 3 parts' }).click()
    await expect(dialog).toContainText('Removed 3 parts')
    await snapshot(page, testInfo, 'prune-04-done')
    await dialog.locator('.dialog-actions').getByRole('button', { name: 'Close' }).click()

    // Both tabs re-read the native rows: two tool calls fewer, the reasoning gone, without reloading.
    await expect(page.locator('.tool-call')).toHaveCount(before - 2)
    await expect(other.locator('.tool-call')).toHaveCount(before - 2)
    // Where the parts were, both tabs say Loupe removed them (from the receipts).
    for (const tab of [page, other]) await expect(tab.locator('.pruned-note').first()).toContainText(/removed here by Loupe/)
    await expect(bar).not.toContainText('selected')
    // Both headers show the smaller size: this tab from its own run, the other from events.pruned.
    await expect(stored(other)).not.toHaveAttribute('title', storedBefore!)
    await expect(stored(page)).not.toHaveAttribute('title', storedBefore!)
    await expect.poll(async () => stored(other).getAttribute('title')).toBe(await stored(page).getAttribute('title'))
    await snapshot(other, testInfo, 'prune-05-other-tab')
  })

  test('cleans up a whole session in batches and shows the savings gone', async ({ page }, testInfo) => {
    await open(page, 'Config loader startup error')
    const bar = page.getByRole('region', { name: 'Clean up technical parts' })
    await bar.getByRole('button', { name: 'Clean up whole session…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove technical parts' })
    await expect(dialog).toContainText('every tool call and reasoning block of this session')
    await snapshot(page, testInfo, 'prune-06-session-review')
    await dialog.getByRole('button', { name: /^Remove \d+ parts?$/ }).click()
    await expect(dialog).toContainText('Done')
    await dialog.locator('.dialog-actions').getByRole('button', { name: 'Close' }).click()
    await expect(bar).toContainText('No tool calls or reasoning left')
    await expect(page.locator('.tool-call')).toHaveCount(0)
    await expect(page.locator('.message-assistant').first()).toBeVisible()
    // Opened again later, the transcript still says where parts were taken out.
    await page.reload()
    await expect(page.locator('.pruned-note').first()).toContainText(/removed here by Loupe/)
    await snapshot(page, testInfo, 'prune-07-session-clean')
  })

  test('OpenCode itself lists the sessions without the pruned parts', async ({ request }) => {
    const auth = { authorization: `Bearer ${server.token}` }
    const list = (await (await request.get(`${server.baseURL}/trpc/sessions.list?input=${encodeURIComponent(JSON.stringify({ limit: 50 }))}`, { headers: auth })).json()).result.data
    const byTitle = (t: string) => list.sessions.find((s: { title: string; storage: string }) => s.title === t && s.storage === 'v1')
    const work = path.join(dir, 'opencode')
    const configPath = path.join(work, 'config', 'opencode', 'opencode.json')
    writeConfig(configPath, 'http://127.0.0.1:9/v1')
    const cache = process.env.OPENCODE_REAL_CACHE || path.join(os.homedir(), '.cache', 'opencode-real')
    const env = { ...isolatedEnv(work, configPath), OPENCODE_DB: db }
    fs.mkdirSync(path.join(work, 'cwd'), { recursive: true })
    const opencode = await startOpencode({ bin: ensureOpencode({ cache, version: '1.18.33' }), env, cwd: path.join(work, 'cwd'), logFile: path.join(work, 'opencode.log') })
    try {
      const read = async (id: string) => (await (await fetch(`${opencode.url}/session/${id}/message`)).json()) as Exported[]
      const errors = await read(byTitle('Config loader startup error').id)
      expect(errors.flatMap((m) => m.parts).filter((p) => p.type === 'tool' || p.type === 'reasoning')).toEqual([])
      expect(errors.flatMap((m) => m.parts).filter((p) => p.type === 'text').length).toBeGreaterThan(0)
      const tour = await read(byTitle('Repository tour').id)
      const kinds = tour.flatMap((m) => m.parts).map((p) => p.type)
      expect(kinds.filter((k) => k === 'reasoning').length).toBe(1)
      expect(kinds).toContain('tool')
    } finally {
      await opencode.stop()
    }
    expect(removed.length).toBe(3)
  })

  test('reclaims space on the Storage page once OpenCode is stopped', async ({ page }, testInfo) => {
    await page.goto(`${server.baseURL}/storage?token=${server.token}`)
    const panel = page.getByRole('region', { name: 'Reclaim space' })
    await expect(panel).toContainText('Free inside the file')
    // The page's doctor scans the file on its own connection first; reclaim waits for it, as a person would.
    await expect(page.getByText(/Scanned in/)).toBeVisible({ timeout: 30_000 })
    await snapshot(page, testInfo, 'prune-08-storage')
    await panel.getByRole('button', { name: 'Reclaim space' }).click()
    await expect(panel.locator('.banner-info')).toContainText('→', { timeout: 30_000 })
    await expect(panel).toContainText('the write-ahead log is empty')
    await snapshot(page, testInfo, 'prune-09-reclaimed')
  })
})
