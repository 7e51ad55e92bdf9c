import type { Page } from '@playwright/test'
import { GALLERY_SESSION_TITLE } from '../support/loupe-server.js'
import { expect, snapshot, test } from '../support/test.js'

const PHONE = { width: 390, height: 844 }
const MIN_TARGET = 40

/** Every visible control on screen narrower or shorter than a finger: buttons, links styled as buttons, selects, and checkboxes by their label. */
async function smallTargets(page: Page, scope = 'body'): Promise<string[]> {
  return page.locator(scope).evaluate((root, min) => {
    const controls = root.querySelectorAll<HTMLElement>('button, a.button, a.link-button, .tabs a, select, input[type="checkbox"], input[type="search"], input[type="text"], input[type="number"]')
    const small: string[] = []
    for (const control of controls) {
      const target = control instanceof HTMLInputElement && control.type === 'checkbox' ? control.closest('label') ?? control : control
      const box = target.getBoundingClientRect()
      const style = getComputedStyle(target)
      if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue
      if (box.bottom < 0 || box.top > innerHeight) continue
      if (box.width < min - 0.5 || box.height < min - 0.5) {
        const name = (control.getAttribute('aria-label') ?? control.textContent ?? '').trim().slice(0, 40)
        small.push(`${target.tagName.toLowerCase()}.${target.className} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`)
      }
    }
    return small
  }, MIN_TARGET)
}

/** Nothing on screen runs past the right edge, and the page never scrolls sideways. */
async function offScreen(page: Page, selector: string): Promise<string[]> {
  const out: string[] = []
  for (const el of await page.locator(selector).all()) {
    if (!(await el.isVisible())) continue
    const box = await el.boundingBox()
    if (box && (box.x < 0 || box.x + box.width > PHONE.width + 0.5)) out.push(`${(await el.innerText()).slice(0, 30)} at ${Math.round(box.x)}–${Math.round(box.x + box.width)}`)
  }
  return out
}

test.use({ viewport: PHONE, isMobile: true, hasTouch: true })

test.describe('phone (390 px)', () => {
  test.beforeEach(async ({ page, loupe }) => {
    await page.goto(`/?token=${loupe.token}`)
    await expect(page).toHaveURL(/\/sessions$/)
  })

  test('probe', async ({ page }, testInfo) => {
    await page.locator('.session-row').first().waitFor()
    await snapshot(page, testInfo, 'phone-sessions')
    console.log('sessions', await smallTargets(page))
    await page.getByPlaceholder('Filter by title…').fill('gallery paging')
    await page.locator('.session-row', { hasText: GALLERY_SESSION_TITLE }).click()
    await page.locator('.item').first().waitFor()
    await page.waitForTimeout(800)
    await snapshot(page, testInfo, 'phone-transcript')
    console.log('transcript', await smallTargets(page))
    await page.getByRole('button', { name: 'Clean up whole session…' }).click()
    await page.getByRole('dialog').locator('table').first().waitFor()
    await snapshot(page, testInfo, 'phone-review')
    console.log('review', await smallTargets(page, 'dialog'), await offScreen(page, 'dialog th'))
    await page.getByRole('button', { name: 'Keep everything' }).click()
    await page.getByRole('link', { name: /Gallery/ }).click()
    await page.locator('.gallery-tile').first().waitFor()
    await snapshot(page, testInfo, 'phone-gallery')
    console.log('gallery', await smallTargets(page), await offScreen(page, '.gallery-toolbar button'))
    await page.getByRole('link', { name: /Bytes/ }).click()
    await page.waitForTimeout(1500)
    await snapshot(page, testInfo, 'phone-bytes')
    console.log('bytes', await smallTargets(page), await offScreen(page, 'th'))
    await page.goto('/search?q=readFileSync')
    await page.locator('.hit').first().waitFor()
    await snapshot(page, testInfo, 'phone-search')
    console.log('search', await smallTargets(page))
    await page.getByRole('button', { name: 'Clean up matching…' }).click()
    await page.getByRole('dialog').locator('table').first().waitFor()
    await snapshot(page, testInfo, 'phone-cleanup')
    console.log('cleanup', await smallTargets(page, 'dialog'), await offScreen(page, 'dialog th'))
  })
})
