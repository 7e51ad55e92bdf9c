import { fireEvent, screen, waitFor, within } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { realApi, renderApp } from '../../../test/real-api'
import { sessionByTitle } from '../../../test/sessions'
import { formatBytes } from '../../lib/format'
import { totalBytes } from '../sessions/session-row'

// This file changes the shared test database: it only prunes a session no other web test reads.
const TITLE = 'Config loader startup error'

describe('figures after a prune (real api, real OpenCode fixture)', () => {
  it('re-reads the session header once the prune commits, and the list shows the pruned size on the way back', async () => {
    const api = realApi()
    const session = await sessionByTitle(api, TITLE)
    const ref = { sessionID: session.id, storage: 'v1' as const }
    const before = await api.sessions.get.query(ref)
    const { history } = renderApp(`/sessions/${session.id}?storage=v1`)
    const stored = () => document.querySelector('.session-meta .session-bytes')
    const exactly = (detail: typeof before) => `${totalBytes(detail.session).toLocaleString('en-US')} bytes stored: content plus event log`
    await waitFor(() => expect(stored()?.getAttribute('title')).toBe(exactly(before)))
    expect(stored()?.textContent).toBe(formatBytes(totalBytes(before.session)))

    const bar = await screen.findByRole('region', { name: 'Clean up technical parts' })
    const everything = await within(bar).findByRole('button', { name: 'Clean up whole session…' })
    await waitFor(() => expect((everything as HTMLButtonElement).disabled).toBe(false))
    fireEvent.click(everything)
    const dialog = await screen.findByRole('dialog', { name: 'Remove technical parts' })
    fireEvent.click(await within(dialog).findByRole('button', { name: /^Remove \d+ parts?$/ }))
    await waitFor(() => expect(dialog.textContent).toMatch(/Removed \d+ parts? from/))

    const after = await api.sessions.get.query(ref)
    const shrunk = formatBytes(totalBytes(after.session))
    expect(shrunk).not.toBe(formatBytes(totalBytes(before.session)))
    // The header now says what the server says, without a reload.
    await waitFor(() => expect(stored()?.getAttribute('title')).toBe(exactly(after)))
    expect(stored()?.textContent).toBe(shrunk)
    expect(history.get()).toContain(`/sessions/${session.id}`)

    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!)
    fireEvent.click(within(document.querySelector<HTMLElement>('.breadcrumbs')!).getByRole('link', { name: 'Sessions' }))
    const row = await screen.findByRole('row', { name: new RegExp(TITLE) })
    expect(row.querySelector('.session-size .num')?.textContent).toBe(shrunk)
  })
})
