import { fireEvent, screen, waitFor, within } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { realApi, renderApp } from '../../../test/real-api'
import { sessionByTitle } from '../../../test/sessions'

// This file changes the shared test database: it only prunes a session no other web test reads.
const TITLE = 'Plan stdin support'
const checkboxes = () => [...document.querySelectorAll<HTMLInputElement>('.prune-check input')]

describe('pruning in the transcript (real api, real OpenCode fixture)', () => {
  it('shows what the session would save, reviews a selection, removes it and re-reads the message', async () => {
    const api = realApi()
    const session = await sessionByTitle(api, TITLE)
    renderApp(`/sessions/${session.id}?storage=v1`)
    const bar = await screen.findByRole('region', { name: 'Clean up technical parts' })
    await waitFor(() => expect(bar.textContent).toMatch(/tool calls? and \d+ reasoning/))
    // 1.x has no compaction boundary: every token a prune frees is context the model reads.
    expect(bar.textContent).toMatch(/frees ~[\d.]+k? tokens of context/)
    expect(bar.textContent).not.toContain('stored only')
    await waitFor(() => expect(checkboxes().length).toBeGreaterThan(1))
    const toolsBefore = document.querySelectorAll('.tool-call').length

    fireEvent.click(checkboxes()[0]!)
    await waitFor(() => expect(bar.textContent).toContain('1 part selected'))
    fireEvent.click(within(bar).getByRole('button', { name: 'Review removal…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove technical parts' })
    await waitFor(() => expect(dialog.querySelectorAll('.prune-parts tbody tr')).toHaveLength(1))
    expect(dialog.textContent).toMatch(/: 1 tool call in 1 message\. Frees ~[\d.]+k? tokens of context\./)

    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove 1 part' }))
    await waitFor(() => expect(dialog.textContent).toContain('Removed 1 part from 1 message'))
    await waitFor(() => expect(document.querySelectorAll('.tool-call').length).toBe(toolsBefore - 1))
    await waitFor(() => expect(bar.textContent).not.toContain('selected'))

    // The server agrees: the next plan has one tool call fewer.
    const plan = await api.pruning.sessionPlan.query({ sessionID: session.id, storage: 'v1' })
    expect(plan.totals.tools).toBe(toolsBefore - 1)
  })

  it('refuses a stale selection instead of guessing: the review says which part is gone', async () => {
    const api = realApi()
    const session = await sessionByTitle(api, TITLE)
    renderApp(`/sessions/${session.id}?storage=v1`)
    await waitFor(() => expect(checkboxes().length).toBeGreaterThan(0))
    fireEvent.click(checkboxes()[0]!)
    // Meanwhile another client prunes that very part (live updates need the browser's cookie: see e2e).
    const messageID = document.querySelector('.prune-check')!.closest('[data-message-id]')!.getAttribute('data-message-id')!
    const preview = await api.pruning.preview.query({ sessionID: session.id, storage: 'v1', messageID })
    if (preview.status !== 'preview') throw new Error(preview.detail)
    await api.pruning.prune.mutate({ sessionID: session.id, storage: 'v1', messageID, revision: preview.revision, indexes: [preview.parts[0]!.index] })

    const bar = screen.getByRole('region', { name: 'Clean up technical parts' })
    fireEvent.click(within(bar).getByRole('button', { name: 'Review removal…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove technical parts' })
    await waitFor(() => expect(dialog.textContent).toContain('left as they are'))
    expect(dialog.textContent).toContain('no longer in this message')
    expect((within(dialog).getByRole('button', { name: /^Remove/ }) as HTMLButtonElement).disabled).toBe(true)
  })
})
