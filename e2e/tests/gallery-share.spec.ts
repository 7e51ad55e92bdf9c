import { GALLERY_SESSION_TITLE } from '../support/loupe-server.js'
import { expect, snapshot, test } from '../support/test.js'

/**
 * The gallery end to end in Chromium: page through a session's images, open one, share the gallery,
 * and open the link in a fresh browser context that has no owner cookie: it sees those images and
 * nothing else, and stops seeing them the moment the link is revoked.
 */
test('pages the gallery, opens the lightbox, shares it and opens the link without the owner cookie', async ({ page, browser, loupe }, testInfo) => {
  await page.goto(`/sessions?token=${loupe.token}`)
  await page.getByPlaceholder('Filter by title…').fill('gallery paging')
  await page.locator('.session-row', { hasText: GALLERY_SESSION_TITLE }).click()
  await page.getByRole('link', { name: /Gallery/ }).click()
  await expect(page).toHaveURL(/\/gallery\?storage=v1/)

  // 80 images over 120 assistant messages: the first pages arrive, the rest as the grid scrolls.
  const tiles = page.locator('.gallery-tile:not(.gallery-tile-skeleton)')
  await expect(tiles.first()).toBeVisible()
  const firstCount = await tiles.count()
  expect(firstCount).toBeLessThan(80)
  await expect(page.locator('.gallery-tile img').first()).toHaveJSProperty('complete', true)
  expect(await page.locator('.gallery-tile img').first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  await snapshot(page, testInfo, 'gallery-01-grid')
  for (let i = 0; i < 20 && (await tiles.count()) < 80; i++) {
    await page.locator('.gallery-panel').evaluate((el) => el.scrollTo(0, el.scrollHeight))
    await page.waitForTimeout(250)
  }
  await expect(tiles).toHaveCount(80)
  await expect(page.locator('.page-summary')).toHaveText('80 images')
  await expect(page.locator('.gallery-origin-read')).toHaveCount(40)
  await expect(page.locator('.gallery-origin-pasted')).toHaveCount(40)

  // the lightbox: keyboard navigation, the 1024 px preview, download and the link into the transcript
  await page.locator('.gallery-panel').evaluate((el) => el.scrollTo(0, 0))
  await tiles.first().locator('button').click()
  const viewer = page.getByRole('dialog', { name: 'Image viewer' })
  await expect(viewer.locator('.lb-title')).toHaveText('architecture.png')
  await expect(viewer.locator('.lb-counter')).toHaveText('1 of 80')
  await expect(viewer.locator('img.lb-image')).toHaveJSProperty('complete', true)
  await expect(page).toHaveURL(/img=/)
  await snapshot(page, testInfo, 'gallery-02-lightbox')
  await page.keyboard.press('ArrowRight')
  await expect(viewer.locator('.lb-title')).toHaveText('screenshot-1.png')
  await expect(viewer.locator('.lb-counter')).toHaveText('2 of 80')
  const download = await viewer.getByRole('link', { name: 'Download' }).getAttribute('href')
  const original = await page.request.get(download!)
  expect(original.status()).toBe(200)
  expect(original.headers()['content-disposition']).toMatch(/^attachment/)
  await page.keyboard.press('ArrowLeft')
  await viewer.getByRole('button', { name: 'Copy reference' }).click()
  await expect(viewer.locator('.lb-note')).toContainText('docs/architecture.png')
  // a reload keeps the open image
  await page.reload()
  await expect(page.getByRole('dialog', { name: 'Image viewer' }).locator('.lb-title')).toHaveText('architecture.png')
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog', { name: 'Image viewer' })).toHaveCount(0)

  // share the gallery
  await page.getByRole('button', { name: 'Share…' }).click()
  // Loupe listens on loopback here: the dialog says so before a link is made, and offers no QR code for it.
  await expect(page.locator('.share-loopback')).toContainText('--host 0.0.0.0')
  await page.getByRole('button', { name: 'Create link' }).click()
  const url = await page.getByRole('textbox', { name: 'Share link' }).inputValue()
  expect(url).toMatch(/\/s\/[A-Za-z0-9_-]{43}$/)
  await expect(page.getByText(/--host 0\.0\.0\.0/)).toBeVisible()
  await expect(page.getByRole('img', { name: 'QR code of the share link' })).toHaveCount(0)
  await snapshot(page, testInfo, 'gallery-03-share')

  // another device: a fresh context, no owner cookie
  const guest = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, colorScheme: 'dark' })
  const phone = await guest.newPage()
  const asked: string[] = []
  phone.on('request', (request) => asked.push(new URL(request.url()).pathname))
  await phone.goto(url)
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText(GALLERY_SESSION_TITLE)
  const guestTiles = phone.locator('.gallery-tile:not(.gallery-tile-skeleton)')
  await expect(guestTiles.first()).toBeVisible()
  await snapshot(phone, testInfo, 'gallery-04-shared-phone')
  // the whole gallery, by scrolling the page (the same budgets as the owner's pages)
  for (let i = 0; i < 30 && (await guestTiles.count()) < 80; i++) {
    await phone.mouse.wheel(0, 4000)
    await phone.waitForTimeout(250)
  }
  await expect(guestTiles).toHaveCount(80)
  await phone.evaluate(() => window.scrollTo(0, 0))
  await guestTiles.nth(1).locator('button').click()
  await expect(phone.getByRole('dialog', { name: 'Image viewer' }).locator('.lb-title')).toHaveText('screenshot-1.png')
  await expect(phone.getByRole('link', { name: 'Download' })).toBeVisible()
  await expect(phone.getByRole('link', { name: 'Open in transcript' })).toHaveCount(0)
  await expect(phone.getByRole('button', { name: 'Copy reference' })).toHaveCount(0)
  await snapshot(phone, testInfo, 'gallery-05-shared-lightbox')
  // it never touched the owner's API, and cannot
  expect(asked.filter((p) => p.startsWith('/trpc') || p.startsWith('/api/sessions'))).toEqual([])
  expect((await phone.request.get('/trpc/sessions.list')).status()).toBe(401)
  await phone.goto(url.replace(/\/s\/.*/, '/sessions'))
  await expect(phone.getByText('Loupe needs its access link')).toBeVisible()

  // revoked: the same link stops working at once
  await page.locator('.share-row[data-status="active"] .share-revoke').first().click()
  await expect(page.locator('.share-row[data-status="revoked"]')).toHaveCount(1)
  await phone.goto(url)
  await expect(phone.getByText('This link no longer works')).toBeVisible()
  await guest.close()
})
