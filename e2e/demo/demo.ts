// `npm run demo`: start Loupe over a copy of the real-OpenCode fixture and walk through it in
// Chromium, writing screenshots (and a video when this Playwright can record) to artifacts/demo/.
// DEMO_HEADED=1 shows the browser window; DEMO_SLOWMO=ms paces each action (default 250 headed).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { GALLERY_SESSION_TITLE, LONG_SESSION_TITLE, startLoupe } from '../support/loupe-server.js'

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'demo')
const headed = process.env.DEMO_HEADED === '1'
const slowMo = Number(process.env.DEMO_SLOWMO ?? (headed ? 250 : 0))
const viewport = { width: 1440, height: 900 }
const say = (line: string) => process.stdout.write(`[demo] ${line}\n`)

async function openContext(browser: Browser, scheme: 'dark' | 'light'): Promise<{ context: BrowserContext; page: Page; video: boolean }> {
  const base = { viewport, colorScheme: scheme, deviceScaleFactor: 1 } as const
  const recording = await browser.newContext({ ...base, recordVideo: { dir: path.join(out, 'video'), size: viewport } })
  try {
    return { context: recording, page: await recording.newPage(), video: true }
  } catch (error) {
    await recording.close().catch(() => {})
    say(`no video: ${(error as Error).message.split('\n')[0]}`)
    say('  (run through `npm run demo`, which points Playwright at the system ffmpeg; Loupe never downloads browser builds.)')
    const context = await browser.newContext(base)
    return { context, page: await context.newPage(), video: false }
  }
}

async function tour(page: Page, baseURL: string, token: string, shot: (name: string) => Promise<void>) {
  await page.goto(`${baseURL}/sessions?token=${token}`)
  await page.locator('.session-row').first().waitFor()
  await shot('01-sessions')

  await page.getByRole('button', { name: /^Size/ }).click()
  await page.waitForURL(/sort=size&order=desc/)
  await page.locator('.session-rows.stale').waitFor({ state: 'detached' }).catch(() => {})
  await shot('01a-sorted-by-size')

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).click()
  await page.getByRole('region', { name: 'Usage over time' }).getByText('Model calls').waitFor()
  await page.getByRole('region', { name: 'Where the bytes are' }).getByText('Superseded snapshots').waitFor()
  await page.waitForTimeout(300)
  await shot('01b-overview')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sessions' }).click()
  await page.getByRole('button', { name: /^Updated/ }).click()
  await page.locator('.session-row').first().waitFor()

  await page.getByPlaceholder('Filter by title…').pressSequentially('screen', { delay: headed ? 90 : 0 })
  await page.locator('.session-row', { hasText: 'Screenshot vs architecture diagram' }).waitFor()
  await page.waitForTimeout(300)
  await shot('02-filtered')

  await page.locator('.session-row', { hasText: 'Screenshot vs architecture diagram' }).click()
  await page.locator('.thumb img').first().waitFor()
  await page.locator('.transcript').evaluate((el) => el.scrollTo({ top: 0 }))
  await shot('03-session')

  await page.locator('.tool-call', { hasText: 'architecture.png' }).first().locator('.collapsible-summary').click()
  await page.locator('.reasoning .collapsible-summary').first().click()
  await shot('04-tool-expanded')

  await page.locator('.thumb').last().click()
  await page.locator('dialog.lightbox img').waitFor()
  await shot('05-image')
  await page.keyboard.press('Escape')

  await page.keyboard.press('b')
  await page.locator('svg.stacked-bar').waitFor()
  await shot('06-bytes')

  await page.keyboard.press('Escape')
  await page.getByPlaceholder('Filter by title…').fill('')
  await page.locator('.session-row', { hasText: 'Slugify helper in slug-2.js' }).click()
  const edit = page.locator('.tool-call').filter({ has: page.locator('.tool-name', { hasText: /^edit$/ }) }).first()
  await edit.locator('.collapsible-summary').click()
  await edit.locator('.diff-view').waitFor()
  await edit.scrollIntoViewIfNeeded()
  await shot('06a-diff')

  await page.keyboard.press('Escape')
  await page.locator('.session-row', { hasText: LONG_SESSION_TITLE }).click()
  await page.locator('[data-message-id]').first().waitFor()
  await shot('07-long-transcript')
  for (let i = 0; i < 3; i++) {
    const before = await page.locator('[data-message-id]').count()
    await page.locator('.transcript').evaluate((el) => el.scrollBy({ top: -el.scrollTop + 40, behavior: 'instant' }))
    await page.waitForFunction((n) => document.querySelectorAll('[data-message-id]').length > n, before, { timeout: 10_000 }).catch(() => {})
  }
  await shot('08-long-transcript-scrolled')

  await page.keyboard.press('?')
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor()
  await shot('09-shortcuts')
  await page.keyboard.press('Escape')

  await page.keyboard.press('g')
  await page.keyboard.press('d')
  await page.getByRole('heading', { name: 'Storage' }).waitFor()
  await shot('10-storage')

  await page.goto(`${baseURL}/search?q=readFileSync`)
  await page.locator('.hit').first().waitFor()
  await shot('12-search')
  await page.getByRole('button', { name: 'Clean up matching…' }).click()
  await page.getByRole('dialog', { name: 'Clean up matching' }).locator('.prune-totals').waitFor()
  await shot('13-search-cleanup')
  await page.keyboard.press('Escape')

  await page.goto(`${baseURL}/sessions`)
  await page.locator('.session-row', { hasText: 'Repository tour' }).click()
  const bar = page.getByRole('region', { name: 'Clean up technical parts' })
  await bar.getByRole('button', { name: 'Clean up whole session…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Remove technical parts' })
  await dialog.locator('.prune-parts tbody tr').first().waitFor()
  await shot('14-prune-preview')
  await dialog.getByRole('button', { name: /^Remove \d+ parts?$/ }).click()
  await dialog.getByRole('heading', { name: 'Done' }).or(dialog.locator('.dialog-actions').getByRole('button', { name: 'Close' })).first().waitFor()
  await shot('15-pruned')
  await dialog.locator('.dialog-actions').getByRole('button', { name: 'Close' }).click()

  await page.goto(`${baseURL}/sessions`)
  await page.locator('.session-row', { hasText: GALLERY_SESSION_TITLE }).click()
  await page.getByRole('link', { name: /Gallery/ }).click()
  await page.locator('.gallery-tile img').first().waitFor()
  await page.waitForTimeout(500)
  await shot('16-gallery')
}

async function main() {
  fs.rmSync(out, { recursive: true, force: true })
  fs.mkdirSync(out, { recursive: true })
  const wantHeaded = headed && !!process.env.DISPLAY
  if (headed && !wantHeaded) say('DEMO_HEADED=1 but there is no $DISPLAY: running headless.')
  const server = await startLoupe({ longMessages: 600 })
  say(`Loupe is running at ${server.baseURL}/?token=${server.token} (pid ${server.pid})`)
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: !wantHeaded,
    slowMo,
    args: ['--disable-gpu', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
  const written: string[] = []
  try {
    const { context, page, video } = await openContext(browser, 'dark')
    const shot = async (name: string) => {
      const file = path.join(out, `${name}.png`)
      await page.screenshot({ path: file })
      written.push(file)
      say(`screenshot ${path.relative(process.cwd(), file)}`)
    }
    await tour(page, server.baseURL, server.token, shot)
    await context.close()
    if (video) {
      const file = await page.video()?.path()
      if (file) say(`video ${path.relative(process.cwd(), file)}`)
    }

    const light = await browser.newContext({ viewport, colorScheme: 'light' })
    const lightPage = await light.newPage()
    await lightPage.goto(`${server.baseURL}/sessions?token=${server.token}`)
    await lightPage.locator('.session-row', { hasText: 'Screenshot vs architecture diagram' }).click()
    await lightPage.locator('.thumb img').first().waitFor()
    await lightPage.locator('.transcript').evaluate((el) => el.scrollTo({ top: 0 }))
    const file = path.join(out, '17-light-session.png')
    await lightPage.screenshot({ path: file })
    written.push(file)
    say(`screenshot ${path.relative(process.cwd(), file)}`)
    await light.close()

    // A phone: the owner's gallery at 390 px, where Share… and the Images conversation must fit.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark', deviceScaleFactor: 1, isMobile: true, hasTouch: true })
    const phonePage = await phone.newPage()
    await phonePage.goto(`${server.baseURL}/sessions?token=${server.token}`)
    await phonePage.locator('.session-row', { hasText: GALLERY_SESSION_TITLE }).click()
    await phonePage.getByRole('link', { name: /Gallery/ }).click()
    await phonePage.locator('.gallery-tile img').first().waitFor()
    await phonePage.waitForTimeout(500)
    const phoneFile = path.join(out, '18-phone-gallery.png')
    await phonePage.screenshot({ path: phoneFile })
    written.push(phoneFile)
    say(`screenshot ${path.relative(process.cwd(), phoneFile)}`)
    await phone.close()
  } finally {
    await browser.close()
    await server.stop()
  }
  say(`done: ${written.length} screenshots in ${path.relative(process.cwd(), out)}`)
}

main().catch((error: unknown) => {
  process.stderr.write(`[demo] failed: ${(error as Error).stack ?? String(error)}\n`)
  process.exit(1)
})
