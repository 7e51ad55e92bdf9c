import type { Page } from '@playwright/test'
import { expect, snapshot, test } from '../support/test.js'

/** Every hit's preview (three clamped lines) shows its first match, not only text above it. */
async function expectMatchesInPreview(page: Page) {
  const snippets = await page.locator('.hit-snippet').all()
  expect(snippets.length).toBeGreaterThan(0)
  for (const snippet of snippets) {
    const shown = (await snippet.boundingBox())!
    const mark = (await snippet.locator('mark').first().boundingBox())!
    expect(mark.y + mark.height).toBeLessThanOrEqual(shown.y + shown.height + 1)
  }
}

test.describe('search', () => {
  test.beforeEach(async ({ page, loupe }) => {
    await page.goto(`/sessions?token=${loupe.token}`)
    await expect(page).toHaveURL(/\/sessions$/)
    // The index builds in the server's worker; searching before it is ready scans instead.
    await expect.poll(async () => (await page.request.get('/trpc/history.status').then((r) => r.json())).result.data.state).toBe('ready')
  })

  test('opens with /, shows ranked hits as you type, and opens a hit at its part', async ({ page }, testInfo) => {
    await page.locator('.session-row').first().waitFor()
    await page.keyboard.press('/')
    await expect(page).toHaveURL(/\/search$/)
    const box = page.getByPlaceholder(/Search all history/)
    await expect(box).toBeFocused()
    await box.pressSequentially('readFileSync', { delay: 40 })
    await expect(page).toHaveURL(/q=readFileSync/)
    const hits = page.locator('.hit')
    await expect(hits.first()).toBeVisible()
    await expect(page.locator('.hit-snippet mark').first()).toHaveText(/readFileSync/i)
    await expectMatchesInPreview(page)
    await expect(page.locator('.page-summary')).toContainText('result')
    await snapshot(page, testInfo, 'search-01-results')

    await page.getByRole('button', { name: 'Flat' }).click()
    await expect(page).toHaveURL(/view=flat/)
    await page.getByRole('button', { name: 'Tool' }).click()
    await expect(page).toHaveURL(/kinds=tool/)
    await expect(page.locator('.hit-kind').first()).toContainText('Tool')
    await snapshot(page, testInfo, 'search-02-flat-tools')

    // The URL is the search: reloading shows the same answer.
    const before = await hits.allInnerTexts()
    await page.reload()
    await expect(hits.first()).toBeVisible()
    expect(await hits.allInnerTexts()).toEqual(before)

    await box.focus()
    await page.keyboard.press('ArrowDown')
    await expect(page.locator('.hit.selected')).toHaveAttribute('data-index', '1')
    const href = await page.locator('.hit.selected').getAttribute('href')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(href!)
    const part = new URL(page.url()).searchParams.get('part')!
    expect(part).toBeTruthy()
    const target = page.locator(`.item.highlighted[data-part="${part}"]`)
    await expect(target).toBeInViewport()
    // The query's matches are marked inside the part (CSS highlights: no DOM change), the first one in view.
    const marks = () => page.evaluate(() => [...(CSS.highlights.get('loupe-hit') ?? [])].map((r) => {
      const range = r as Range
      const rect = range.getBoundingClientRect()
      return { text: range.toString(), inPart: !!range.startContainer.parentElement?.closest('.item.highlighted'), visible: rect.bottom > 0 && rect.top < innerHeight }
    }))
    await expect.poll(async () => (await marks()).length).toBeGreaterThan(0)
    const found = await marks()
    expect(found.every((m) => /^readfilesync$/i.test(m.text) && m.inPart)).toBe(true)
    expect(found[0]!.visible).toBe(true)
    // The view reports its position to the URL 300 ms after scrolling stops; the link to the part
    // must survive that, so the address bar still opens the hit when copied or reloaded.
    await page.waitForTimeout(800)
    expect(page.url()).toContain(`part=${encodeURIComponent(part)}`)
    await page.reload()
    await expect(page.locator(`.item.highlighted[data-part="${part}"]`)).toBeInViewport()
    await expect.poll(async () => (await marks()).length).toBe(found.length)
    await snapshot(page, testInfo, 'search-03-opened-at-part')
  })

  test('opens a hit with its part read from the header and its first match well in view, wide and on a phone', async ({ page }, testInfo) => {
    // Where the opened part and its first match sit in the transcript, which scrolls under the bars.
    const place = () => page.evaluate(() => {
      const scroller = document.querySelector('.transcript')!
      const view = scroller.getBoundingClientRect()
      const part = document.querySelector('.item.highlighted')!.getBoundingClientRect()
      const mark = ([...(CSS.highlights.get('loupe-hit') ?? [])][0] as Range).getBoundingClientRect()
      // A part near the end of a short session cannot rise further than the transcript scrolls.
      const atEnd = scroller.scrollTop >= scroller.scrollHeight - scroller.clientHeight - 1
      return { height: view.height, partHeight: part.height, header: part.top - view.top, match: mark.top - view.top, belowMatch: view.bottom - mark.bottom, atEnd }
    })
    for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(size)
      // Two tool calls: a grep that fits the screen, and a read whose output is the taller one.
      for (const tool of ['grep', 'read']) {
        await page.goto('/search?q=readFileSync&view=flat&kinds=tool')
        await page.locator('.hit').filter({ has: page.locator('.hit-tool', { hasText: new RegExp(`^${tool}$`) }) }).first().click()
        await expect(page).toHaveURL(/part=/)
        await expect.poll(() => page.evaluate(() => CSS.highlights.get('loupe-hit')?.size ?? 0)).toBeGreaterThan(0)
        const at = await place()
        const where = `${tool} at ${size.width}×${size.height}: ${JSON.stringify(at)}`
        // Clear of the bar above the transcript, and not on the bottom edge.
        expect(at.match, where).toBeGreaterThanOrEqual(11)
        expect(at.belowMatch, where).toBeGreaterThanOrEqual(40)
        if (at.partHeight <= at.height - 52) {
          expect(at.header, where).toBeGreaterThanOrEqual(11)
          if (!at.atEnd) expect(at.header, where).toBeLessThanOrEqual(49)
        } else if (at.header < 0) {
          // Too tall to show from its header with the match: the match a third of the way down.
          expect(at.match, where).toBeLessThanOrEqual(at.height * 0.4)
        }
        await snapshot(page, testInfo, `search-03a-opened-${tool}-${size.width}`)
      }
    }
  })

  test('keeps what is typed right after / while the search page loads', async ({ page }) => {
    await page.locator('.session-row').first().waitFor()
    // No wait for the box: the page is a lazily loaded chunk, and people type at once.
    await page.keyboard.press('/')
    await page.keyboard.type('readFileSync')
    const box = page.getByPlaceholder(/Search all history/)
    await expect(box).toHaveValue('readFileSync')
    await expect(box).toBeFocused()
    await expect(page).toHaveURL(/q=readFileSync/)
    await page.keyboard.type(' json')
    await expect(box).toHaveValue('readFileSync json')
  })

  test('keeps text pasted right after / while the search page loads', async ({ page }) => {
    await page.locator('.session-row').first().waitFor()
    await page.keyboard.press('/')
    await page.evaluate(() => {
      const data = new DataTransfer()
      data.setData('text/plain', 'readFileSync\njson')
      document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
    })
    await expect(page.getByPlaceholder(/Search all history/)).toHaveValue('readFileSync json')
    await expect(page).toHaveURL(/q=readFileSync%20json/)
  })

  test('reads a repeated parameter of a link by its first value instead of going blank', async ({ page }) => {
    await page.goto('/search?q=readFileSync&q=zzz&kinds=tool&kinds=user&tool=read&tool=bash')
    await expect(page.locator('.hit').first()).toBeVisible()
    await expect(page.getByPlaceholder(/Search all history/)).toHaveValue('readFileSync')
    await expect(page.getByRole('combobox', { name: 'Tool' })).toHaveValue('read')
    await expect(page.locator('.hit-kind').first()).toContainText('read')
    await expect(page.getByText(/Bad request/)).toHaveCount(0)
  })

  test('keeps a search that stayed on screen in history, so Back returns to it', async ({ page }) => {
    await page.goto('/search?q=readFileSync')
    await expect(page.locator('.hit').first()).toBeVisible()
    // Read for a while, then search for something else.
    await page.waitForTimeout(2300)
    await page.getByPlaceholder(/Search all history/).fill('stdin')
    await expect(page).toHaveURL(/q=stdin/)
    await page.getByRole('button', { name: 'Tool', exact: true }).click()
    await expect(page).toHaveURL(/kinds=tool/)
    await page.goBack()
    await expect(page).toHaveURL(/\/search\?q=stdin$/)
    await page.goBack()
    await expect(page).toHaveURL(/\/search\?q=readFileSync$/)
    await expect(page.getByPlaceholder(/Search all history/)).toHaveValue('readFileSync')
  })

  test('opens a result of what is in the box when Enter comes before its results', async ({ page }) => {
    await page.goto('/search?q=readFileSync')
    await expect(page.locator('.hit').first()).toBeVisible()
    const box = page.getByPlaceholder(/Search all history/)
    // Typing is debounced: Enter right away must not open one of readFileSync's results.
    await box.fill('architecture screenshot')
    await box.press('Enter')
    await expect(page).toHaveURL(/\/sessions\//)
    expect(new URL(page.url()).searchParams.get('hl')).toBe('architecture screenshot')
    await page.goBack()
    await expect(page).toHaveURL(/q=architecture/)
  })

  test('arrow keys keep the selection while rows scroll under a resting pointer', async ({ page }) => {
    await page.goto('/search?q=the&view=flat')
    const hits = page.locator('.hit')
    await expect(hits.nth(20)).toBeAttached()
    await hits.nth(3).hover()
    await page.getByPlaceholder(/Search all history/).focus()
    const seen: string[] = []
    for (let i = 0; i < 24; i++) {
      await page.keyboard.press('ArrowDown')
      await page.waitForTimeout(60)
      seen.push((await page.locator('.hit.selected').getAttribute('data-index'))!)
    }
    expect(seen).toEqual(Array.from({ length: 24 }, (_, i) => String(i + 1)))
  })

  test('comes back from an opened result to the same results, with that result selected', async ({ page }) => {
    await page.goto('/search?q=the&view=flat')
    const hits = page.locator('.hit')
    await expect(hits.first()).toBeVisible()
    // A second page, so Back has more than the first page to bring back.
    await page.getByRole('button', { name: 'Load more' }).click()
    await expect.poll(() => hits.count()).toBeGreaterThan(30)
    const loaded = await hits.count()
    const target = hits.nth(loaded - 2)
    const index = await target.getAttribute('data-index')
    await target.click()
    await expect(page).toHaveURL(/\/sessions\//)
    // The pointer stays where it clicked: rows moving under it must not take the selection.
    await page.goBack()
    await expect(page.locator('.hit.selected')).toHaveAttribute('data-index', index!)
    expect(await hits.count()).toBe(loaded)
    await expect(page.locator('.hit.selected')).toBeInViewport()
    // The place was only for coming back: the address is the search again.
    await expect(page).toHaveURL(/\/search\?q=the&view=flat$/)
  })

  test('leaves an opened result with Esc for the same results, and / reopens them with the query selected', async ({ page }, testInfo) => {
    await page.goto('/search?q=the&view=flat')
    const hits = page.locator('.hit')
    await expect(hits.nth(5)).toBeVisible()
    await hits.nth(5).click()
    await expect(page).toHaveURL(/\/sessions\/[^/]+\?/)
    await expect(page.locator('.item.highlighted')).toBeVisible()
    // Another tab of the same session, then Esc: back through history to the results' own entry.
    await page.keyboard.press('b')
    await expect(page).toHaveURL(/\/bytes\?/)
    await page.keyboard.press('Escape')
    await expect(page).toHaveURL(/\/search\?q=the&view=flat$/)
    await expect(page.locator('.hit.selected')).toHaveAttribute('data-index', '5')
    await page.goForward()
    await expect(page).toHaveURL(/\/sessions\/[^/]+\?/)
    await page.goBack()
    await expect(page).toHaveURL(/\/search\?q=the&view=flat$/)

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sessions' }).click()
    await expect(page).toHaveURL(/\/sessions/)
    await page.locator('.session-row').first().waitFor()
    await page.keyboard.press('/')
    await expect(page).toHaveURL(/\/search\?q=the&view=flat$/)
    const box = page.getByPlaceholder(/Search all history/)
    await expect(box).toBeFocused()
    await expect.poll(() => box.evaluate((el: HTMLInputElement) => [el.value, el.selectionStart, el.selectionEnd])).toEqual(['the', 0, 3])
    await snapshot(page, testInfo, 'search-06-reopened-with-slash')
    await page.keyboard.type('readFileSync')
    await expect(box).toHaveValue('readFileSync')
    await expect(page).toHaveURL(/\/search\?q=readFileSync&view=flat$/)
  })

  test('loads more below what is on screen in grouped view, a session seen above continued', async ({ page }, testInfo) => {
    await page.goto('/search?q=the')
    const groups = page.locator('.hit-group')
    await expect(groups.first()).toBeVisible()
    const shown = async () => groups.evaluateAll((els) => els.map((g) => ({
      title: g.querySelector('.hit-group-title')!.textContent, rows: [...g.querySelectorAll('.hit')].map((h) => h.getAttribute('data-index')),
      continued: g.classList.contains('hit-group-continued'),
    })))
    const before = await shown()
    const rows = before.reduce((n, g) => n + g.rows.length, 0)
    await page.getByRole('button', { name: 'Load more' }).click()
    await expect.poll(async () => (await shown()).reduce((n, g) => n + g.rows.length, 0)).toBeGreaterThan(rows)
    const after = await shown()
    // The groups on screen are as they were; everything loaded comes after them.
    expect(after.slice(0, before.length)).toEqual(before)
    const added = after.slice(before.length)
    expect(added.some((g) => g.continued)).toBe(true)
    await page.locator('.hit-group-continued').first().scrollIntoViewIfNeeded()
    await snapshot(page, testInfo, 'search-02b-grouped-load-more')
    expect(added.flatMap((g) => g.rows).every((i) => Number(i) >= rows)).toBe(true)
    expect(added.filter((g) => g.continued).map((g) => g.title).every((t) => before.some((b) => b.title === t))).toBe(true)
    // Arrow keys walk the groups in screen order, into the loaded ones.
    const order = after.flatMap((g) => g.rows)
    await page.getByPlaceholder(/Search all history/).focus()
    for (let i = 1; i <= rows; i++) await page.keyboard.press('ArrowDown')
    await expect(page.locator('.hit.selected')).toHaveAttribute('data-index', order[rows]!)
  })

  test('names where each session ran at phone width, so sessions of one title stay apart', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/search?q=co*')
    const heads = page.locator('.hit-group-head')
    await expect(heads.nth(1)).toBeVisible()
    for (const head of await heads.all()) {
      const dir = head.locator('.hit-group-dir')
      await expect(dir).toBeVisible()
      await expect(dir).toHaveText(/\S\/\S/)
      // On a line of its own under the title, inside the header.
      const [title, shown, box] = await Promise.all([head.locator('.hit-group-title').boundingBox(), dir.boundingBox(), head.boundingBox()])
      expect(shown!.y).toBeGreaterThanOrEqual(title!.y + title!.height - 1)
      expect(shown!.x + shown!.width).toBeLessThanOrEqual(box!.x + box!.width)
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0)
    await snapshot(page, testInfo, 'search-06-phone-groups')
  })

  test('fits the clean-up preview into a phone-wide dialog, long titles cut', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/search?q=co*')
    await page.getByRole('button', { name: 'Clean up matching…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Clean up matching' })
    await expect(dialog.locator('.prune-parts tbody tr').nth(2)).toBeVisible()
    const fit = await dialog.evaluate((d) => {
      const body = d.querySelector('.modal-body')!.getBoundingClientRect()
      const cells = [...d.querySelectorAll('.prune-parts th, .prune-parts td')].map((c) => c.getBoundingClientRect().right)
      return { over: d.scrollWidth - d.clientWidth, cellsPast: cells.filter((right) => right > body.right - 8).length }
    })
    expect(fit).toEqual({ over: 0, cellsPast: 0 })
    await snapshot(page, testInfo, 'search-07-phone-cleanup-preview')
    // Only a look: the clean-up itself is another test's.
    await dialog.getByRole('button', { name: 'Keep everything' }).click()
    await expect(dialog).toHaveCount(0)
  })

  test('offers the searches that opened a result again, keeping the filters, until forgotten', async ({ page }) => {
    await page.goto('/search?q=readFileSync')
    await page.locator('.hit').first().click()
    await expect(page).toHaveURL(/\/sessions\//)
    await page.goto('/search?kinds=tool')
    const recent = page.locator('.recent-searches')
    await expect(recent.getByRole('link')).toHaveText(['readFileSync'])
    await recent.getByRole('link', { name: 'readFileSync' }).click()
    await expect(page).toHaveURL(/\/search\?kinds=tool&q=readFileSync$/)
    await expect(page.getByPlaceholder(/Search all history/)).toHaveValue('readFileSync')
    await expect(page.locator('.hit-kind').first()).toContainText('Tool')
    await page.goBack()
    await recent.getByRole('button', { name: 'Forget these' }).click()
    await expect(recent).toHaveCount(0)
    await page.reload()
    await expect(page.getByText('Search everything OpenCode kept')).toBeVisible()
    await expect(recent).toHaveCount(0)
  })

  test('searches inside one session from that session, and names it', async ({ page }) => {
    await page.goto('/search?q=architecture%20screenshot&kinds=title')
    await page.locator('.hit').first().click()
    await expect(page.locator('.session-name')).toHaveText('Screenshot vs architecture diagram')
    await page.keyboard.press('f')
    // The search starts from the words that found the session, inside it, and names it at once.
    await expect(page).toHaveURL(/\/search\?q=architecture\+screenshot&session=ses_[^&]+&storage=v1$/)
    await expect(page.locator('.scope-chip')).toHaveText(/In “Screenshot vs architecture diagram”/)
    await page.getByPlaceholder(/Search this session/).fill('zzzqqq')
    await expect(page.getByText('No matches')).toBeVisible()
    await expect(page.locator('.scope-chip')).toHaveText(/In “Screenshot vs architecture diagram”/)
    await page.getByPlaceholder(/Search this session/).fill('png')
    await expect(page.locator('.hit').first()).toBeVisible()
    const titles = await page.locator('.hit-group-title').allInnerTexts()
    expect(new Set(titles)).toEqual(new Set(['Screenshot vs architecture diagram']))
    await page.getByRole('button', { name: 'Search everywhere' }).click()
    await expect(page).not.toHaveURL(/session=/)
  })

  test('opens a title hit with the words it was found by marked in the session title', async ({ page }) => {
    await page.goto('/search?q=architecture%20screenshot&kinds=title')
    const hit = page.locator('.hit').first()
    await expect(hit.locator('.hit-kind')).toContainText(/title/i)
    await hit.click()
    await expect(page.locator('.session-name')).toHaveText('Screenshot vs architecture diagram')
    const marks = () => page.evaluate(() => [...(CSS.highlights.get('loupe-title-hit') ?? [])].map((r) => {
      const range = r as Range
      return { text: range.toString(), inTitle: !!range.startContainer.parentElement?.closest('.session-name') }
    }))
    await expect.poll(async () => (await marks()).map((m) => m.text)).toEqual(['Screenshot', 'architecture'])
    expect((await marks()).every((m) => m.inTitle)).toBe(true)
    // The transcript reports its position to the URL 300 ms after a scroll; the title's search stays.
    await page.locator('.transcript').evaluate((el) => el.dispatchEvent(new Event('scroll')))
    await page.waitForTimeout(800)
    expect(new URL(page.url()).searchParams.get('hl')).toBe('architecture screenshot')
    await page.reload()
    await expect.poll(async () => (await marks()).length).toBe(2)
    // Leaving the session takes its marks along.
    await page.goBack()
    await expect(page).toHaveURL(/\/search\?/)
    expect(await marks()).toEqual([])
  })

  test('marks a phrase where markdown splits it into bold and plain text', async ({ page }, testInfo) => {
    // The index matched "**tally** is a tiny" in the raw text; rendered, the phrase spans two nodes.
    await page.goto('/search?q=%22tally%20is%20a%20tiny%22&kinds=text')
    await page.locator('.hit').first().click()
    await expect(page).toHaveURL(/part=/)
    const marks = () => page.evaluate(() => [...(CSS.highlights.get('loupe-hit') ?? [])].map((r) => {
      const range = r as Range
      return { text: range.toString(), bold: range.startContainer.parentElement?.tagName, inPart: !!range.endContainer.parentElement?.closest('.item.highlighted') }
    }))
    await expect.poll(marks).toEqual([{ text: 'tally is a tiny', bold: 'STRONG', inPart: true }])
    await snapshot(page, testInfo, 'search-03b-phrase-across-bold')
  })

  test('explains an empty answer and shows hostile text as text', async ({ page }) => {
    await page.goto('/search?q=%22%3Cscript%3E%22%20NEAR(%20-%20*')
    await expect(page.getByText('No matches')).toBeVisible()
    // How the query was read, when it is not what its syntax suggests.
    // A link to a session that is gone offers to search everywhere instead of a retry that fails again.
    await page.goto('/search?q=readFileSync&session=ses_000000000000aaaaaaaaaaaaaa')
    await expect(page.locator('.empty-state h2')).toHaveText('Nothing to search in there')
    await page.locator('.empty-state').getByRole('button', { name: 'Search everywhere' }).click()
    await expect(page).toHaveURL(/\/search\?q=readFileSync$/)
    await expect(page.locator('.hit').first()).toBeVisible()
    // So does a project this history does not have, and the project menu names it as unknown.
    await page.goto('/search?q=readFileSync&project=0000000000000000000000000000000000000000')
    await expect(page.locator('.empty-state h2')).toHaveText('Nothing to search in there')
    await expect(page.getByRole('combobox', { name: 'Project' }).locator('option:checked')).toHaveText('Unknown project')
    // Exclusions alone search nothing: the page says so in place of its welcome, once.
    await page.goto('/search?q=-readFileSync')
    const empty = page.locator('.empty-state')
    await expect(empty.locator('h2')).toHaveText('Nothing to search for yet')
    await expect(empty).toContainText('Add a word to look for: -word only leaves results out.')
    await expect(page.locator('.search-notice')).toHaveCount(0)
    await expect(page.getByText('No matches')).toHaveCount(0)
    await page.goto('/search?q=r*')
    await expect(page.locator('.search-notice')).toHaveText('A prefix needs two characters or more: “r*” is searched as the word “r”.')
    await page.goto('/search?q=%22type%20file%22&view=flat')
    const snippet = page.locator('.hit-snippet').first()
    await expect(snippet).toContainText('<type>file</type>')
    expect(await snippet.locator('type').count()).toBe(0)
    await expectMatchesInPreview(page)
  })

  test('cleans up everything matching from the results, with a preview of totals', async ({ page }, testInfo) => {
    await page.goto('/search?q=readFileSync')
    const hits = page.locator('.hit')
    await expect(hits.first()).toBeVisible()
    await expect(page.locator('.hit-kind', { hasText: 'Tool' }).first()).toBeVisible()
    const before = await hits.count()
    // The tool calls that match: clean-up removes exactly these, and nothing else of their messages.
    const toolFilter = page.getByRole('button', { name: 'Tool', exact: true })
    await toolFilter.click()
    await expect(page).toHaveURL(/kinds=tool/)
    await expect(hits.filter({ hasNot: page.locator('.hit-kind', { hasText: 'Tool' }) })).toHaveCount(0)
    const matched = await hits.count()

    await page.getByRole('button', { name: 'Clean up matching…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Clean up matching' })
    await expect(dialog.getByRole('heading', { name: /Remove the tool calls and reasoning that match “readFileSync”/ })).toBeVisible()
    await expect(dialog.locator('.prune-totals')).toContainText(new RegExp(`${matched} tool calls? in`))
    await expect(dialog.locator('.cleanup-session')).toHaveText(['Plan stdin support'])
    await snapshot(page, testInfo, 'search-04-cleanup-preview')

    await dialog.getByRole('button', { name: new RegExp(`^Remove ${matched} tool calls?$`) }).click()
    await expect(dialog.getByRole('heading', { name: 'Done' })).toBeVisible()
    await expect(dialog).toContainText(new RegExp(`Removed ${matched} tool calls? \\(`))
    await snapshot(page, testInfo, 'search-05-cleanup-done')
    await dialog.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click()
    // This search's empty answer is the clean-up's doing, and says so.
    await expect(page.locator('.empty-state h2')).toHaveText('Cleaned up')

    // The index dropped the pruned parts in the same request: without the filter, only text hits remain.
    await toolFilter.click()
    await expect(hits.first()).toBeVisible()
    await expect(page.locator('.hit-kind', { hasText: 'Tool' })).toHaveCount(0)
    expect(await hits.count()).toBeLessThan(before)
    // Matches in text remove nothing: nothing is left to clean up.
    await page.getByRole('button', { name: 'Clean up matching…' }).click()
    await expect(dialog.getByRole('heading', { name: 'Nothing left to clean up' })).toBeVisible()
    await expect(dialog.getByRole('button', { name: /^Remove/ })).toHaveCount(0)
    await page.keyboard.press('Escape')

    // The transcript says where the tool calls went; no tool call left there mentions readFileSync.
    await hits.first().click()
    await expect(page.locator('h1.session-name')).toHaveText('Plan stdin support')
    await expect(page.locator('.pruned-note').first()).toContainText(new RegExp(`${matched} tool calls? .*removed here by Loupe`))
    await expect(page.locator('.tool-call', { hasText: 'readFileSync' })).toHaveCount(0)
  })
})
