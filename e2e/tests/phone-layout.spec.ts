import Database from 'better-sqlite3'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { ensureRealFixture } from '../../tools/fixtures.mjs'
import { startLoupeServer } from '../../tools/loupe-server.mjs'
import { GALLERY_SESSION_TITLE } from '../support/loupe-server.js'
import { expect, snapshot, test } from '../support/test.js'

const PHONE = { width: 390, height: 844 }
const WIDE = { width: 1440, height: 900 }
/** What a finger needs (issue 23.4). */
const MIN_TARGET = 40

/**
 * Every visible control on screen smaller than a finger in either direction: buttons, links that
 * act as buttons, tabs, selects and text fields, and checkboxes by the label that takes their taps.
 */
async function smallTargets(scope: Locator): Promise<string[]> {
  return scope.evaluate((root, min) => {
    const controls = root.querySelectorAll<HTMLElement>('button, a.button, a.link-button, .tabs a, select, input[type="checkbox"], input[type="search"], input[type="text"], input[type="number"]')
    const small: string[] = []
    for (const control of controls) {
      const target = control instanceof HTMLInputElement && control.type === 'checkbox' ? control.closest('label') ?? control : control
      const box = target.getBoundingClientRect()
      if (box.width === 0 || box.height === 0 || getComputedStyle(target).visibility === 'hidden') continue
      if (box.bottom < 0 || box.top > innerHeight) continue
      if (box.width < min - 0.5 || box.height < min - 0.5) {
        const name = (control.getAttribute('aria-label') ?? control.textContent ?? '').trim().slice(0, 40)
        small.push(`${target.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`)
      }
    }
    return small
  }, MIN_TARGET)
}

/** The element lies inside the viewport's width (a phone cannot scroll to what is past it). */
async function expectOnScreen(el: Locator, width: number) {
  const box = await el.boundingBox()
  expect(box, 'element has a box').not.toBeNull()
  expect(box!.x).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width).toBeLessThanOrEqual(width + 0.5)
}

async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(await page.evaluate(() => innerWidth))
}

async function openGallerySession(page: Page) {
  await page.getByPlaceholder('Filter by title…').fill('gallery paging')
  await page.locator('.session-row', { hasText: GALLERY_SESSION_TITLE }).click()
  await page.locator('.prune-check').first().waitFor()
}

test.describe('at 390 px and 1440 px', () => {
  test.beforeEach(async ({ page, loupe }) => {
    await page.goto(`/sessions?token=${loupe.token}`)
    await expect(page).toHaveURL(/\/sessions$/)
  })

  test('on a phone every control is at least 40 px to tap and every button and Tokens column stays on screen', async ({ browser, loupe }, testInfo) => {
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: 'dark' })
    const page = await context.newPage()
    await page.goto(`${loupe.baseURL}/sessions?token=${loupe.token}`)
    await page.locator('.session-row').first().waitFor()
    expect(await smallTargets(page.locator('body'))).toEqual([])
    await expectNoSidewaysScroll(page)
    await snapshot(page, testInfo, 'phone-01-sessions')

    // A project's Images conversation bar: its buttons fit, and without a server say why they are off.
    const project = page.getByLabel('Project')
    await project.selectOption({ index: 1 })
    const bar = page.getByRole('region', { name: 'Images conversation' })
    await expect(bar.locator('.images-convo-needs')).toContainText('--opencode-url')
    for (const name of ['Open Images conversation', 'New']) {
      const button = bar.getByRole('button', { name, exact: true })
      await expect(button).toBeDisabled()
      await expectOnScreen(button, PHONE.width)
    }
    expect(await smallTargets(page.locator('body'))).toEqual([])
    await expectNoSidewaysScroll(page)
    await snapshot(page, testInfo, 'phone-01-project')
    await project.selectOption({ index: 0 })

    // The transcript: part checkboxes, "Clean up step", the savings bar.
    await openGallerySession(page)
    await expect(page.locator('.prune-bar-figure')).toContainText(/frees ~[\d.]+k? tokens of context/)
    expect(await smallTargets(page.locator('body'))).toEqual([])
    const check = await page.locator('.prune-check').first().boundingBox()
    expect(check!.width).toBeGreaterThanOrEqual(MIN_TARGET)
    expect(check!.height).toBeGreaterThanOrEqual(MIN_TARGET)
    await expectNoSidewaysScroll(page)
    await snapshot(page, testInfo, 'phone-02-transcript')

    // The review keeps its Tokens column on screen, and says what the tokens are.
    await page.getByRole('button', { name: 'Clean up whole session…' }).click()
    const review = page.getByRole('dialog', { name: 'Remove technical parts' })
    await expect(review.locator('.prune-totals')).toContainText(/Frees ~[\d.]+k? tokens of context\./)
    await expectOnScreen(review.locator('th', { hasText: 'Tokens' }), PHONE.width)
    await expectOnScreen(review.locator('tbody tr').first().locator('td').last(), PHONE.width)
    expect(await smallTargets(review)).toEqual([])
    await snapshot(page, testInfo, 'phone-03-review')
    await review.getByRole('button', { name: 'Keep everything' }).click()

    // The gallery: Share… and both Images conversation buttons fit; without a server they say why they are off.
    await page.getByRole('link', { name: /Gallery/ }).click()
    await page.locator('.gallery-tile').first().waitFor()
    const share = page.getByRole('button', { name: 'Share…' })
    const open = page.getByRole('button', { name: 'Open Images conversation' })
    const create = page.getByRole('button', { name: 'New', exact: true })
    for (const button of [share, open, create]) await expectOnScreen(button, PHONE.width)
    await expect(open).toBeDisabled()
    await expect(create).toBeDisabled()
    await expect(page.locator('.images-convo-needs')).toBeVisible()
    await expectOnScreen(page.locator('.images-convo-needs'), PHONE.width)
    expect(await smallTargets(page.locator('body'))).toEqual([])
    await expectNoSidewaysScroll(page)
    await snapshot(page, testInfo, 'phone-04-gallery')
    await page.locator('.gallery-tile button').first().click()
    const viewer = page.getByRole('dialog', { name: 'Image viewer' })
    await expect(viewer.locator('.lb-title')).toBeVisible()
    expect(await smallTargets(viewer)).toEqual([])
    await snapshot(page, testInfo, 'phone-04-lightbox')
    await page.keyboard.press('Escape')
    await expect(viewer).toHaveCount(0)
    await share.click()
    const sharing = page.getByRole('dialog', { name: /Share/ })
    await expect(sharing.getByRole('button', { name: /Create/ })).toBeVisible()
    expect(await smallTargets(sharing)).toEqual([])
    // The command to fix a loopback-only Loupe reads as one piece: it never breaks at its "--".
    const fix = sharing.locator('.share-loopback code')
    expect((await fix.boundingBox())!.height).toBeLessThan(24)
    await snapshot(page, testInfo, 'phone-04-share')
    await page.keyboard.press('Escape')
    await expect(sharing).toHaveCount(0)

    // The Bytes lists keep their Tokens figures inside the card.
    await page.getByRole('link', { name: /Bytes/ }).click()
    const row = page.locator('.bar-list').first().locator('.bar-row').first()
    await expect(row.locator('.bar-tokens')).toHaveText(/tok$/)
    const card = await page.locator('.bar-list').first().boundingBox()
    const tokens = await row.locator('.bar-tokens').boundingBox()
    expect(tokens!.x + tokens!.width).toBeLessThanOrEqual(card!.x + card!.width)
    await expectOnScreen(row.locator('.bar-tokens'), PHONE.width)
    await expectNoSidewaysScroll(page)
    await snapshot(page, testInfo, 'phone-05-bytes')

    // Search results and their filters.
    await page.goto(`${loupe.baseURL}/search?q=readFileSync`)
    await page.locator('.hit').first().waitFor()
    expect(await smallTargets(page.locator('body'))).toEqual([])
    await expectNoSidewaysScroll(page)
    await snapshot(page, testInfo, 'phone-06-search')

    // The clean-up plan tells sessions of one title apart by date, place and id, on screen.
    await page.getByRole('button', { name: 'Clean up matching…' }).click()
    const cleanup = page.getByRole('dialog', { name: 'Clean up matching' })
    const first = cleanup.locator('tbody tr').first()
    await expect(first.locator('.cleanup-id')).toHaveText(/^ses_\w+$/)
    await expect(first.locator('.cleanup-when')).toHaveText(/\d{4}/)
    await expectOnScreen(first.locator('.cleanup-id'), PHONE.width)
    await expectOnScreen(cleanup.locator('th', { hasText: 'Bytes' }), PHONE.width)
    await expect(cleanup.locator('.prune-totals')).toContainText(/Frees ~[\d.]+k? tokens of context\./)
    expect(await smallTargets(cleanup)).toEqual([])
    await snapshot(page, testInfo, 'phone-07-cleanup')
    await cleanup.getByRole('button', { name: 'Keep everything' }).click()

    // The Storage page and its retention clean-up dialog.
    await page.goto(`${loupe.baseURL}/storage`)
    await page.locator('.facts').first().waitFor()
    await page.waitForTimeout(1000)
    expect(await smallTargets(page.locator('body'))).toEqual([])
    await expectNoSidewaysScroll(page)
    await page.screenshot({ path: testInfo.outputPath('phone-08-storage-full.png'), fullPage: true })
    await page.getByRole('button', { name: 'Clean up old sessions…' }).click()
    const clean = page.getByRole('dialog', { name: 'Clean up old sessions' })
    expect(await smallTargets(clean)).toEqual([])
    await snapshot(page, testInfo, 'phone-08-storage-clean')
    await context.close()
  })

  test('wide, the gallery toolbar keeps one row and the review names context and stored-only tokens', async ({ page }, testInfo) => {
    await page.setViewportSize(WIDE)
    await page.getByLabel('Project').selectOption({ index: 1 })
    const bar = page.getByRole('region', { name: 'Images conversation' })
    await expect(bar.getByRole('button', { name: 'Open Images conversation' })).toBeDisabled()
    await expect(bar.locator('.images-convo-needs')).toBeVisible()
    await snapshot(page, testInfo, 'wide-00-project')
    await page.getByLabel('Project').selectOption({ index: 0 })
    await openGallerySession(page)
    await page.getByRole('button', { name: 'Clean up whole session…' }).click()
    const review = page.getByRole('dialog', { name: 'Remove technical parts' })
    await expect(review.locator('.prune-token-split')).toHaveAttribute('title', /Stored only/)
    await snapshot(page, testInfo, 'wide-01-review')
    await review.getByRole('button', { name: 'Keep everything' }).click()

    await page.getByRole('link', { name: /Gallery/ }).click()
    await page.locator('.gallery-tile').first().waitFor()
    const share = await page.getByRole('button', { name: 'Share…' }).boundingBox()
    const open = await page.getByRole('button', { name: 'Open Images conversation' }).boundingBox()
    expect(Math.abs(share!.y - open!.y)).toBeLessThan(4)
    await expect(page.getByRole('button', { name: 'Open Images conversation' })).toBeDisabled()
    await expect(page.locator('.images-convo-needs')).toContainText('--opencode-url http://127.0.0.1:4096')
    await snapshot(page, testInfo, 'wide-02-gallery')
  })
})

test.describe('a file with a migration newer than Loupe knows', () => {
  const MIGRATION = '20261008161446_tanstack_stores'
  let dir: string
  let server: Awaited<ReturnType<typeof startLoupeServer>> | undefined

  test.beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-readonly-'))
    const db = path.join(dir, 'opencode.db')
    fs.copyFileSync(path.join(await ensureRealFixture(), 'opencode.db'), db)
    const handle = new Database(db)
    handle.prepare('INSERT INTO migration (id, time_completed) VALUES (?, ?)').run(MIGRATION, Date.now())
    handle.close()
    server = await startLoupeServer({ db, dir, token: 'e2e-readonly-token-at-least-24-chars' })
  })
  test.afterAll(async () => {
    await server?.stop()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  for (const viewport of [WIDE, PHONE]) {
    test(`the Storage page names it at ${viewport.width} px`, async ({ page }, testInfo) => {
      await page.setViewportSize(viewport)
      await page.goto(`${server!.baseURL}/sessions?token=${server!.token}`)
      await expect(page).toHaveURL(/\/sessions$/)
      await page.goto(`${server!.baseURL}/storage`)
      const note = page.getByRole('note')
      await expect(note).toContainText(`Opened read-only: this file has migration ${MIGRATION}, newer than Loupe knows.`)
      await expectOnScreen(note.locator('code'), viewport.width)
      await expect(page.locator('.facts').first()).toContainText('1 newer than Loupe knows')
      await snapshot(page, testInfo, `storage-read-only-${viewport.width}`)
    })
  }
})
