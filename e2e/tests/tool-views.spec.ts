import type { Locator, Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/test.js'

const WIDTHS = [1440, 390] as const

/** Opens the tool call of `tool` (the first one) and brings it into view. */
async function openTool(page: Page, tool: string): Promise<Locator> {
  const call = page.locator('.tool-call').filter({ has: page.locator('.tool-name', { hasText: new RegExp(`^${tool}$`) }) }).first()
  await call.locator('.collapsible-summary').click()
  await call.scrollIntoViewIfNeeded()
  return call
}

/** Nothing sticks out sideways: the page does not scroll horizontally and the call fits the viewport. */
async function expectFits(page: Page, call: Locator) {
  const width = page.viewportSize()?.width ?? 0
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
  const box = await call.boundingBox()
  expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true)
}

for (const width of WIDTHS) {
  test.describe(`tool calls at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } })

    test.beforeEach(async ({ page, loupe }) => {
      await page.goto(`/sessions?token=${loupe.token}`)
      await expect(page).toHaveURL(/\/sessions$/)
      await page.locator('.session-row', { hasText: 'Slugify helper in slug-2.js' }).click()
      await expect(page.locator('h1.session-name')).toHaveText('Slugify helper in slug-2.js')
    })

    test('an edit reads as a diff, a todo list as a checklist, a shell call as a terminal', async ({ page }, testInfo) => {
      const edit = await openTool(page, 'edit')
      await expect(edit.locator('.diff-stat')).toHaveText('+5 −1')
      await expect(edit.locator('.code-line.del')).toHaveCount(1)
      await expect(edit.locator('.code-line.add')).toHaveCount(5)
      await expect(edit.locator('.code-line.add .code').nth(1)).toHaveText('    .toLowerCase()')
      await expectFits(page, edit)
      await snapshot(page, testInfo, `tool-views-diff-${width}`)

      const todos = await openTool(page, 'todowrite')
      await expect(todos.locator('.todo')).toHaveCount(3)
      await expect(todos.locator('.todo-state')).toHaveText(['in progress', 'to do', 'to do'])
      await expect(todos.locator('.todo-priority').first()).toHaveText('high')
      await expectFits(page, todos)
      await snapshot(page, testInfo, `tool-views-todos-${width}`)

      const bash = await openTool(page, 'bash')
      await expect(bash.locator('.terminal-command')).toContainText('$ ')
      await expect(bash.locator('.terminal-output pre, .terminal-empty').first()).toBeVisible()
      await expect(bash.locator('.terminal-exit')).toHaveText(/^exit \d+$/)
      await expectFits(page, bash)
      await snapshot(page, testInfo, `tool-views-bash-${width}`)

      // The stored JSON stays one click away, and the size is the part's, as the prune review counts it.
      await bash.getByRole('button', { name: 'Raw JSON' }).click()
      await expect(bash.locator('.tool-raw pre')).toContainText('"callID"')
    })

    test('the transcript and the prune review give a part the same size and the same status word', async ({ page }, testInfo) => {
      const items = page.locator('.item').filter({ has: page.locator('.tool-call') })
      const picked = [items.filter({ hasText: 'todowrite' }).first(), items.filter({ hasText: 'notes/session-2.md' }).first()]
      const seen: string[][] = []
      for (const item of picked) {
        seen.push([(await item.locator('.tool-size').innerText()).trim(), (await item.locator('.badge').innerText()).trim()])
        await item.locator('.prune-check input').check()
      }
      const bar = page.getByRole('region', { name: 'Clean up technical parts' })
      const selection = /2 parts selected · ([\d.]+ [KM]?B)/.exec(await bar.innerText())?.[1]
      await bar.getByRole('button', { name: 'Review removal…' }).click()
      const dialog = page.getByRole('dialog', { name: 'Remove technical parts' })
      // The selection's total is the review's total: both add up the same per-part figure.
      await expect(dialog.locator('strong').first()).toHaveText(selection ?? 'no selection total')
      const rows = dialog.locator('.prune-parts tbody tr')
      await expect(rows).toHaveCount(2)
      const reviewed: string[][] = []
      for (const row of await rows.all()) reviewed.push([(await row.locator('td').nth(2).innerText()).trim(), (await row.locator('.badge').innerText()).trim()])
      expect(reviewed.sort()).toEqual(seen.sort())
      expect(seen.map(([, status]) => status?.toLowerCase())).toEqual(['done', 'done'])
      await snapshot(page, testInfo, `tool-views-review-${width}`)
      await page.keyboard.press('Escape')
      await expect(dialog).toHaveCount(0)
    })

    test('a write and a read show their files with line numbers', async ({ page }, testInfo) => {
      const write = await openTool(page, 'write')
      await expect(write.locator('.code-line .ln').first()).toHaveText('1')
      await expect(write.locator('.tool-result')).toHaveText('Wrote file successfully.')
      await expectFits(page, write)
      const read = await openTool(page, 'read')
      await expect(read.locator('.code-line').first()).toBeVisible()
      await expect(read).not.toContainText('<content>')
      await expectFits(page, read)
      await snapshot(page, testInfo, `tool-views-files-${width}`)
    })
  })
}

test.describe('an @-attached file', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test("keeps its lines: the file's context reads as the file, numbered", async ({ page, loupe }, testInfo) => {
    await page.goto(`/sessions?token=${loupe.token}`)
    await page.locator('.session-row', { hasText: 'Plan stdin support' }).click()
    await expect(page.locator('h1.session-name')).toHaveText('Plan stdin support')
    const contexts = page.locator('.item-text').filter({ hasText: 'Context added by OpenCode' })
    await expect(contexts).toHaveCount(2)
    for (const summary of await contexts.locator('.collapsible-summary').all()) await summary.click()
    const file = contexts.locator('.file-view')
    await expect(file).toHaveCount(1)
    await expect(file.locator('.tool-file-base')).toHaveText('cli.js')
    await expect(file.locator('.code-line').first()).toHaveText(/^1\s*#!\/usr\/bin\/env node$/)
    expect(await file.locator('.code-line').count()).toBeGreaterThan(5)
    await file.scrollIntoViewIfNeeded()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await snapshot(page, testInfo, 'tool-views-at-file-390')
  })
})
