import { Router } from '@solidjs/router'
import { fireEvent, screen, waitFor, within } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { renderWithApi } from '../../../test/real-api'
import { CleanSection } from './clean-section'

describe('CleanSection', () => {
  it('reviews a retention rule against the real api before anything is written', async () => {
    renderWithApi(() => <Router root={() => <CleanSection writable onDone={() => {}} />} />)
    fireEvent.click(screen.getByRole('button', { name: 'Clean up old sessions…' }))
    const dialog = await screen.findByRole('dialog', { name: 'Clean up old sessions' })
    const days = within(dialog).getByRole('spinbutton', { name: /Idle for at least/ })
    fireEvent.input(days, { target: { value: '0' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review what would go' }))
    await waitFor(() => expect(within(dialog).getByRole('button', { name: /^Remove \d+ parts?$/ })).toBeTruthy(), { timeout: 15_000 })
    expect(within(dialog).getAllByRole('status')[0]?.textContent).toMatch(/parts? \(.+\) in \d+ sessions?/)
    expect(within(dialog).getAllByRole('link').some((a) => a.getAttribute('href')?.startsWith('/sessions/ses_'))).toBe(true)
    // Each listed session by date, place and id, so sessions of one title are told apart.
    const first = dialog.querySelector('.clean-list li')!
    const href = first.querySelector('a')!.getAttribute('href')!
    expect(first.querySelector('.clean-list-where code')?.textContent).toBe(/\/sessions\/(ses_[^?/]+)/.exec(href)?.[1])
    expect(first.querySelector('.clean-list-where .hit-group-dir')?.getAttribute('title')).toMatch(/^\//)
    expect(first.querySelector('.clean-list-where')?.textContent).toMatch(/\d{4}/)
    // A year of idleness: nothing in the fixture qualifies.
    fireEvent.input(days, { target: { value: '365' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Review what would go' }))
    await waitFor(() => expect(within(dialog).getByText('Nothing to clean up with this rule.')).toBeTruthy())
  })
})
