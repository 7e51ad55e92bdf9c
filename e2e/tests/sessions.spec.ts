import { expect, snapshot, test } from '../support/test.js'

test.describe('sessions', () => {
  test.beforeEach(async ({ page, loupe }) => {
    // The token link sets the HttpOnly cookie and redirects to the same page without the token.
    await page.goto(`/sessions?token=${loupe.token}`)
    await expect(page).toHaveURL(/\/sessions$/)
  })

  test('lists the real sessions and filters them as you type', async ({ page }, testInfo) => {
    const rows = page.locator('.session-row')
    await expect(rows.filter({ hasText: 'Repository tour' })).toBeVisible()
    await expect(rows.filter({ hasText: 'Screenshot vs architecture diagram' })).toBeVisible()
    await expect(page.locator('.page-summary')).toContainText('sessions')
    await snapshot(page, testInfo, '01-session-list')

    await page.getByPlaceholder('Filter by title…').fill('screen')
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toContainText('Screenshot vs architecture diagram')
    await expect(page).toHaveURL(/q=screen/)
    await snapshot(page, testInfo, '02-filtered')

    await page.getByPlaceholder('Filter by title…').fill('no such title anywhere')
    await expect(page.getByText('No sessions match')).toBeVisible()
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await expect(rows.filter({ hasText: 'Repository tour' })).toBeVisible()
  })

  test('reads a repeated parameter of a link by its first value', async ({ page }) => {
    await page.goto('/sessions?q=screen&q=zzz')
    await expect(page.getByPlaceholder('Filter by title…')).toHaveValue('screen')
    await expect(page.locator('.session-row')).toHaveCount(1)
    await expect(page.getByText(/Bad request/)).toHaveCount(0)
  })

  test('opens a session with images, expands a tool call and shows the bytes chart', async ({ page }, testInfo) => {
    await page.locator('.session-row', { hasText: 'Screenshot vs architecture diagram' }).click()
    await expect(page.locator('h1.session-name')).toHaveText('Screenshot vs architecture diagram')
    await expect(page).toHaveURL(/\/sessions\/ses_[^/?]+\?storage=v1/)

    // The pasted screenshot (a user file part) and the image the read tool attached.
    const thumbs = page.locator('.thumb img')
    await expect(thumbs).toHaveCount(2)
    expect(await thumbs.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    await snapshot(page, testInfo, '03-session')

    const read = page.locator('.tool-call', { hasText: 'architecture.png' }).first()
    await read.locator('.collapsible-summary').click()
    await expect(read.getByText('Input', { exact: true })).toBeVisible()
    await expect(read.getByText('Image read successfully')).toBeVisible()
    await snapshot(page, testInfo, '04-tool-expanded')

    await thumbs.last().click()
    await expect(page.locator('dialog.lightbox img')).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.locator('dialog.lightbox')).toHaveCount(0)

    await page.getByRole('link', { name: /Bytes/ }).click()
    await expect(page).toHaveURL(/\/bytes\?storage=v1/)
    await expect(page.locator('svg.stacked-bar rect').first()).toBeVisible()
    await expect(page.locator('.legend')).toContainText('Event log')
    await expect(page.getByRole('region', { name: 'By tool' }).locator('.bar-row').first()).toBeVisible()
    await snapshot(page, testInfo, '05-bytes')

    await page.reload()
    await expect(page.locator('svg.stacked-bar')).toBeVisible()
  })

  test('renders a 2.x session', async ({ page, loupe }, testInfo) => {
    // The two 2.x sessions share a generated title; open the one whose user attached an image.
    const auth = { authorization: `Bearer ${loupe.token}` }
    const call = async (name: string, input: unknown) => {
      const res = await page.request.get(`/trpc/${name}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: auth })
      return (await res.json()).result.data
    }
    const list = await call('sessions.list', { limit: 50 })
    const v2 = list.sessions.filter((s: { storage: string }) => s.storage === 'v2')
    let target: string | undefined
    for (const s of v2) {
      const page1 = await call('sessions.messages', { sessionID: s.id, storage: 'v2', anchor: 'earliest' })
      if (page1.messages.some((m: { message: { files?: unknown[] } }) => (m.message.files ?? []).length > 0)) target = s.id
    }
    expect(target).toBeDefined()
    await page.locator(`.session-row[data-session-id="${target}"]`).click()
    await expect(page.locator('.session-meta')).toContainText('2.x')
    await expect(page.locator('.message-user')).toHaveCount(1)
    await expect(page.locator('.tool-call').first()).toBeVisible()
    await expect(page.locator('.thumb img')).toHaveCount(2)
    await snapshot(page, testInfo, '06-session-2x')
  })

  test('scrolls a long transcript: older pages load above and the view stays put', async ({ page, loupe }, testInfo) => {
    await page.goto(`/sessions/${loupe.longSessionID}?storage=v1`)
    const messages = page.locator('[data-message-id]')
    await expect(messages.first()).toBeVisible()
    const initial = await messages.count()
    expect(initial).toBeLessThan(400)

    const transcript = page.locator('.transcript')
    for (let i = 0; i < 3; i++) {
      const anchor = await page.evaluate(() => {
        const box = document.querySelector('.transcript')!.getBoundingClientRect()
        const el = [...document.querySelectorAll<HTMLElement>('[data-message-id]')].find((m) => m.getBoundingClientRect().bottom > box.top + 1)!
        return { id: el.dataset.messageId!, offset: el.getBoundingClientRect().top - box.top }
      })
      const before = await messages.count()
      await transcript.evaluate((el) => el.scrollBy(0, -el.scrollTop + 50))
      await expect.poll(() => messages.count()).toBeGreaterThan(before)
      // The message that was on top before scrolling is still in the DOM.
      await expect(page.locator(`[data-message-id="${anchor.id}"]`)).toHaveCount(1)
    }
    await snapshot(page, testInfo, '07-long-transcript')

    // The scroll position lives in the URL: reloading lands on the same message.
    await expect(page).toHaveURL(/[?&]m=msg_/)
    const m = new URL(page.url()).searchParams.get('m')!
    await page.reload()
    await expect(page.locator(`[data-message-id="${m}"]`)).toBeInViewport()
  })

  test('works from the keyboard', async ({ page }) => {
    await page.keyboard.press('?')
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
    await page.keyboard.press('Escape')

    await page.keyboard.press('j')
    await page.keyboard.press('Enter')
    await expect(page.locator('h1.session-name')).toBeVisible()
    await page.keyboard.press('b')
    await expect(page).toHaveURL(/\/bytes/)
    await page.keyboard.press('Escape')
    await expect(page).toHaveURL(/\/sessions\?sel=/)
    await page.keyboard.press('g')
    await page.keyboard.press('d')
    await expect(page.getByRole('heading', { name: 'Storage' })).toBeVisible()
  })

  test('explains a session that does not exist', async ({ page }) => {
    await page.goto('/sessions/ses_doesnotexist000000000000?storage=v1')
    await expect(page.getByText('Session not found')).toBeVisible()
    await page.goto('/no/such/page')
    await expect(page.getByText('Nothing lives at this address')).toBeVisible()
  })
})
