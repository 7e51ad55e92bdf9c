import Database from 'better-sqlite3'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureRealFixture } from '../../tools/fixtures.mjs'
import { startLoupeServer, type LoupeServerProcess } from '../../tools/loupe-server.mjs'
import { startOpenCodeServe, type OpenCodeServe } from '../../tools/opencode-serve.js'
import { expect, snapshot, test } from '../support/test.js'

const TOKEN = 'e2e-images-token-at-least-24-chars'

/**
 * A person opens the Images conversation of a real project: a real `opencode serve` and a Loupe
 * started with `--opencode-url` share one copy of the real fixture database; the project is a git
 * repository OpenCode has worked in.
 */
test.describe('Images conversation', () => {
  let dir: string
  let project: string
  let opencode: OpenCodeServe
  let loupe: LoupeServerProcess
  /** Marked sessions of the project, straight from the shared file. */
  const marked = () => {
    const db = new Database(path.join(dir, 'opencode.db'), { readonly: true })
    try {
      return db.prepare(`SELECT id FROM session WHERE directory = ? AND json_extract(metadata, '$."codenomad.companion"') = 'images'`).all(project)
    } finally {
      db.close()
    }
  }
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: project, env: { PATH: process.env.PATH ?? '', HOME: dir, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' }, encoding: 'utf8' })

  test.beforeAll(async () => {
    test.setTimeout(180_000)
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-images-'))
    const db = path.join(dir, 'opencode.db')
    fs.copyFileSync(path.join(await ensureRealFixture(), 'opencode.db'), db)
    project = path.join(dir, 'moodboard')
    fs.mkdirSync(project)
    git('init', '-q', '-b', 'main')
    fs.writeFileSync(path.join(project, 'README.md'), '# Moodboard\n')
    git('add', 'README.md')
    git('-c', 'user.name=e2e', '-c', 'user.email=e2e@example.com', 'commit', '-q', '-m', 'start')
    opencode = await startOpenCodeServe({ dbPath: db })
    await opencode.api('POST', '/session', { directory: project, body: { title: 'Sketch the landing page' } })
    loupe = await startLoupeServer({ db, dir, token: TOKEN, args: ['--opencode-url', opencode.url] })
  })

  test.afterAll(async () => {
    await loupe?.stop()
    await opencode?.stop()
    if (dir) fs.rmSync(dir, { recursive: true, force: true })
  })

  test('opens it on a project, OpenCode has it, and git stops listing the design folder', async ({ page }, testInfo) => {
    await page.goto(`${loupe.baseURL}/sessions?token=${TOKEN}`)
    await page.getByLabel('Project').selectOption({ label: 'moodboard (1)' })
    const panel = page.getByRole('region', { name: 'Images conversation' })
    await expect(panel.locator('.images-convo-status')).toContainText('None yet for this project')
    await snapshot(page, testInfo, 'images-01-project')

    await panel.getByRole('button', { name: 'Open Images conversation' }).click()
    const result = panel.getByRole('status').filter({ hasText: 'Created the Images conversation' })
    // Created through OpenCode's own server, which can take longer than the default 10 s on a busy machine.
    await expect(result).toBeVisible({ timeout: 30_000 })
    await expect(result).toContainText('Git now ignores .codenomad/design/')
    const command = (await result.locator('.images-convo-command code').textContent()) ?? ''
    expect(command).toMatch(/^opencode -s ses_\w+$/)
    const id = command.slice('opencode -s '.length)
    await expect(panel.locator('.images-convo-status')).toContainText('Exists for this project')
    await expect(page.locator('.session-row', { hasText: 'Images' })).toBeVisible()
    await snapshot(page, testInfo, 'images-02-created')

    // OpenCode itself reads it back, marked, in the project.
    const info = await opencode.api('GET', `/session/${id}`, { directory: project })
    expect(info).toMatchObject({ id, directory: project, title: 'Images', metadata: { 'codenomad.companion': 'images' } })
    expect(info.parentID).toBeUndefined()
    expect(marked()).toEqual([{ id }])

    // Design files stay out of `git status`; other new files do not.
    fs.mkdirSync(path.join(project, '.codenomad', 'design'), { recursive: true })
    fs.writeFileSync(path.join(project, '.codenomad', 'design', 'hero.png'), 'png')
    fs.writeFileSync(path.join(project, 'notes.md'), 'notes')
    expect(git('status', '--porcelain', '--untracked-files=all').trim().split('\n')).toEqual(['?? notes.md'])

    await result.getByRole('link', { name: /View “Images” in Loupe/ }).click()
    await expect(page.locator('h1.session-name')).toHaveText('Images')
    await expect(page).toHaveURL(new RegExp(`/sessions/${id}\\?storage=v1`))
    // In the gallery: the same conversation, found, from the toolbar.
    await page.getByRole('link', { name: /Gallery/ }).click()
    const toolbar = page.getByRole('group', { name: 'Images conversation' })
    await expect(toolbar).toContainText('Images conversation: exists')
    await toolbar.getByRole('button', { name: 'Open Images conversation' }).click()
    const dialog = page.getByRole('dialog', { name: 'Images conversation' })
    await expect(dialog.getByRole('status')).toContainText('Opened the Images conversation')
    await expect(dialog).toContainText(`opencode -s ${id}`)
    await expect(dialog).toContainText('Git already ignores .codenomad/design/')
    await snapshot(page, testInfo, 'images-03-gallery')
    await page.keyboard.press('Escape')
    await expect(dialog).toHaveCount(0)
  })

  test('says what to do when OpenCode is not running, and creates nothing', async ({ page }, testInfo) => {
    await opencode.stop()
    await page.goto(`${loupe.baseURL}/sessions?token=${TOKEN}`)
    const select = page.getByLabel('Project')
    await select.selectOption((await select.locator('option', { hasText: 'moodboard' }).getAttribute('value')) ?? '')
    const panel = page.getByRole('region', { name: 'Images conversation' })
    await expect(panel.locator('.images-convo-status')).toContainText('Exists for this project')
    await panel.getByRole('button', { name: 'New' }).click()
    const alert = panel.getByRole('alert')
    await expect(alert).toContainText('OpenCode is unavailable — nothing was created')
    await expect(alert).toContainText('No OpenCode server answered')
    await expect(alert.locator('code').first()).toContainText('opencode serve')
    await snapshot(page, testInfo, 'images-04-unavailable')
    expect(marked()).toHaveLength(1)
  })
})
