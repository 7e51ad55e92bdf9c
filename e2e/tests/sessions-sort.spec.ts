import type { Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/test.js'

/** The sizes the rows show, in bytes as their title attributes spell them (content plus event log). */
const rowIds = (page: Page) => page.locator('.session-row').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.sessionId ?? ''))
const columnTexts = (page: Page, column: string) => page.locator(`.session-row .${column}`).allInnerTexts()

test.describe('sorting the session list', () => {
  test.beforeEach(async ({ page, loupe }) => {
    await page.goto(`/sessions?token=${loupe.token}`)
    await expect(page).toHaveURL(/\/sessions$/)
  })

  test('at 1440 px: a header click or the keyboard sorts either way, the URL keeps it, the header shows exact totals', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 1440, height: 900 })
    const summary = page.locator('.page-summary')
    await expect(summary).toHaveText(/^\d[\d,]* sessions? · [\d.]+ [KMG]?B · [\d.]+[kM]? tokens/)
    await expect(summary).not.toContainText('+')
    await expect(page.getByRole('columnheader', { name: /Tokens/ })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: /Cost/ })).toBeVisible()

    await page.getByRole('button', { name: /^Size/ }).click()
    await expect(page).toHaveURL(/sort=size&order=desc/)
    const sizeHeader = page.getByRole('columnheader', { name: /Size/ })
    await expect(sizeHeader).toHaveAttribute('aria-sort', 'descending')
    await expect(page.locator('.session-rows.stale')).toHaveCount(0)
    const largestFirst = await rowIds(page)
    expect(largestFirst.length).toBeGreaterThan(2)
    await snapshot(page, testInfo, 'sort-1440-size-desc')

    // The same header from the keyboard: Tab lands on its button, Enter turns the order round.
    await page.getByRole('button', { name: /^Size/ }).focus()
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/sort=size&order=asc/)
    await expect(sizeHeader).toHaveAttribute('aria-sort', 'ascending')
    await expect.poll(() => rowIds(page)).toEqual([...largestFirst].reverse())

    // A reload (or a shared link) opens the same order.
    await page.reload()
    await expect(sizeHeader).toHaveAttribute('aria-sort', 'ascending')
    await expect.poll(() => rowIds(page)).toEqual([...largestFirst].reverse())

    await page.getByRole('button', { name: /^Messages/ }).press('Space')
    await expect(page).toHaveURL(/sort=messages&order=desc/)
    await expect.poll(async () => {
      const counts = (await columnTexts(page, 'col-messages')).map((t) => Number(t.replace(/,/g, '')))
      return counts.every((n, i) => i === 0 || n <= counts[i - 1]!)
    }).toBe(true)

    await page.getByRole('button', { name: /^Updated/ }).click()
    await expect(page).toHaveURL(/\/sessions$/)
    await snapshot(page, testInfo, 'sort-1440-updated')
  })

  test("the project menu's counts agree with the list's total", async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 })
    const summary = page.locator('.page-summary')
    await expect(summary).toHaveText(/^\d/)
    const total = Number((await summary.innerText()).split(' ')[0]!.replace(/,/g, ''))
    const options = await page.getByLabel('Project').locator('option').allInnerTexts()
    const counts = options.slice(1).map((o) => Number(/\((\d+)\)$/.exec(o)?.[1]))
    expect(counts.reduce((a, b) => a + b, 0)).toBe(total)
    await page.getByLabel('Subagents').check()
    await expect.poll(async () => Number((await summary.innerText()).split(' ')[0]!.replace(/,/g, ''))).toBeGreaterThan(total)
    const withSubagents = Number((await summary.innerText()).split(' ')[0]!.replace(/,/g, ''))
    await expect.poll(async () => {
      const texts = await page.getByLabel('Project').locator('option').allInnerTexts()
      return texts.slice(1).reduce((n, o) => n + Number(/\((\d+)\)$/.exec(o)?.[1]), 0)
    }).toBe(withSubagents)
  })

  test('at 390 px: the sort menu and direction button sort the list, the sorted figure stays on screen', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/sessions?sort=tokens&order=desc')
    const menu = page.getByLabel('Sort by')
    await expect(menu).toBeVisible()
    await expect(menu).toHaveValue('tokens')
    await expect(page.locator('.session-row .col-tokens').first()).toBeVisible()
    await expect(page.locator('.session-row .col-cost').first()).toBeHidden()
    await snapshot(page, testInfo, 'sort-390-tokens-desc')

    await menu.selectOption('size')
    await expect(page).toHaveURL(/sort=size&order=desc/)
    await page.getByRole('button', { name: /^Order:/ }).click()
    await expect(page).toHaveURL(/sort=size&order=asc/)
    await expect(page.locator('.session-row .col-size').first()).toBeVisible()
    const width = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(width).toBeLessThanOrEqual(390)
    const order = page.getByRole('button', { name: /^Order:/ })
    const box = await order.boundingBox()
    expect(box && box.height).toBeGreaterThanOrEqual(40)
    await snapshot(page, testInfo, 'sort-390-size-asc')
  })
})
