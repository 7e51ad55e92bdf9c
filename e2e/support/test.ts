import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { test as base, expect, type Page, type TestInfo } from '@playwright/test'

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts', 'screenshots')

export interface LoupeFixture {
  baseURL: string
  token: string
  longSessionID: string
}

function env(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`${name} is not set: run the tests through playwright.config.ts (its global setup starts Loupe).`)
  return value
}

/** Tests get the running Loupe's address; `baseURL` makes `page.goto('/sessions')` work. */
// Playwright reads a fixture's dependencies from its destructured first parameter, so `{}` is required.
/* eslint-disable no-empty-pattern */
export const test = base.extend<{ loupe: LoupeFixture }>({
  loupe: async ({}, use) => {
    await use({ baseURL: env('LOUPE_E2E_URL'), token: env('LOUPE_E2E_TOKEN'), longSessionID: env('LOUPE_E2E_LONG_SESSION') })
  },
  baseURL: async ({}, use) => {
    await use(env('LOUPE_E2E_URL'))
  },
})
/* eslint-enable no-empty-pattern */

/** Save a screenshot to e2e/artifacts/screenshots and attach it to the report. */
export async function snapshot(page: Page, testInfo: TestInfo, name: string) {
  fs.mkdirSync(artifacts, { recursive: true })
  const file = path.join(artifacts, `${name}.png`)
  await page.screenshot({ path: file })
  await testInfo.attach(name, { path: file, contentType: 'image/png' })
}

export { expect }
