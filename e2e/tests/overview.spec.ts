import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import type { Page } from '@playwright/test'
import { ensureRealFixture } from '../../tools/fixtures.mjs'
import { startLoupeServer } from '../../tools/loupe-server.mjs'
import { expect, snapshot, test } from '../support/test.js'

/** True when the chart's canvas was drawn on (some pixel is not transparent). */
const drawn = (page: Page, index: number) =>
  page.locator('.usage-chart canvas').nth(index).evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext('2d')
    if (!ctx || canvas.width === 0) return false
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height)
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true
    return false
  })

test.describe('the overview', () => {
  test.beforeEach(async ({ page, loupe }) => {
    await page.goto(`/?token=${loupe.token}`)
    await expect(page).toHaveURL(/\/overview$/)
  })

  test('at 1440 px: charts by model, then by project per week, kept in the URL across a reload; a top session opens its Bytes tab', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 1000 })
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page')
    const usage = page.getByRole('region', { name: 'Usage over time' })
    await expect(usage.getByText('Model calls')).toBeVisible()
    await expect(page.getByRole('radio', { name: '30 days' })).toBeChecked()
    await expect.poll(() => drawn(page, 0)).toBe(true)
    await expect.poll(() => drawn(page, 1)).toBe(true)
    await expect(page.getByRole('region', { name: 'Where the bytes are' }).getByText('Superseded snapshots')).toBeVisible()
    await expect(page.getByRole('region', { name: 'What a clean-up would save' }).getByRole('link', { name: /Review and clean up/ })).toBeVisible()
    await snapshot(page, testInfo, 'overview-1440-model')

    await page.getByText('By project').click()
    await page.getByText('Per week').click()
    await expect(page).toHaveURL(/by=project/)
    await expect(page).toHaveURL(/interval=week/)
    await expect(usage.getByRole('figure').first()).toContainText('Tokens per week by project')
    await page.reload()
    await expect(page.getByRole('radio', { name: 'By project' })).toBeChecked()
    await expect(page.getByRole('radio', { name: 'Per week' })).toBeChecked()
    const table = usage.locator('details.usage-table').first()
    await table.locator('summary').click()
    await expect(table.getByRole('table')).toBeVisible()
    await expect(table.getByRole('rowheader').first()).toHaveText(/^Week of /)
    await expect.poll(() => drawn(page, 0)).toBe(true)
    await snapshot(page, testInfo, 'overview-1440-project-week')

    const top = usage.locator('.overview-top tbody a').first()
    await top.click()
    await expect(page).toHaveURL(/\/sessions\/ses_\w+\/bytes\?storage=v[12]$/)
    await expect(page.getByText('Tokens used')).toBeVisible()
  })

  test('at 390 px: nothing runs off the screen, the choices are 40 px tall, the charts draw', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/overview?range=all&by=project')
    const usage = page.getByRole('region', { name: 'Usage over time' })
    await expect(usage.getByText('Model calls')).toBeVisible()
    await expect.poll(() => drawn(page, 0)).toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    for (const name of ['All time', 'Per week', 'By model']) {
      const box = await page.locator('.segmented label', { hasText: name }).boundingBox()
      expect(box?.height ?? 0).toBeGreaterThanOrEqual(40)
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390)
    }
    await snapshot(page, testInfo, 'overview-390')
    await page.getByRole('region', { name: 'Where the bytes are' }).scrollIntoViewIfNeeded()
    await expect(page.getByRole('region', { name: 'Where the bytes are' }).getByText('Event log')).toBeVisible()
    await snapshot(page, testInfo, 'overview-390-bytes')
  })
})

// What a new user sees first: a file OpenCode made but has not yet written a session to.
test.describe('the landing page on a file with no sessions yet', () => {
  let dir: string
  let server: Awaited<ReturnType<typeof startLoupeServer>> | undefined

  test.beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-empty-'))
    const db = path.join(dir, 'opencode.db')
    fs.copyFileSync(path.join(await ensureRealFixture(), 'opencode.db'), db)
    const handle = new Database(db)
    handle.pragma('foreign_keys = OFF')
    for (const table of ['part', 'message', 'session_message', 'session_input', 'session_context_epoch', 'todo', 'session_share', 'permission', 'event', 'event_sequence', 'session']) {
      handle.prepare(`DELETE FROM ${table}`).run()
    }
    handle.close()
    server = await startLoupeServer({ db, dir, token: 'e2e-empty-token-at-least-24-chars' })
  })
  test.afterAll(async () => {
    await server?.stop()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  for (const width of [1440, 390]) {
    test(`/ opens the Overview and says there is nothing yet at ${width} px`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 })
      await page.goto(`${server!.baseURL}/?token=${server!.token}`)
      await expect(page).toHaveURL(/\/overview$/)
      await expect(page.getByRole('region', { name: 'Usage over time' }).getByText('No model usage in the last 30 days')).toBeVisible()
      await expect(page.getByRole('region', { name: 'Where the bytes are' })).toBeVisible()
      await expect(page.getByRole('region', { name: 'What a clean-up would save' })).toBeVisible()
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      await snapshot(page, testInfo, `overview-empty-${width}`)
    })
  }
})
