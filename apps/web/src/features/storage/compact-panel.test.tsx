import { Router } from '@solidjs/router'
import { fireEvent, screen, waitFor } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { realApi, renderWithApi } from '../../../test/real-api'
import { CompactPanel } from './compact-panel'

describe('CompactPanel (real api, real OpenCode fixture)', () => {
  it('shows what a dry run would redact, compacts, and then finds nothing left to do', async () => {
    const api = realApi()
    const dry = await api.storage.compact.mutate({ dryRun: true })
    let done = 0
    renderWithApi(() => <Router root={() => <CompactPanel writable onDone={() => done++} />} />, api)
    const compact = screen.getByRole('button', { name: 'Compact' }) as HTMLButtonElement
    expect(compact.disabled).toBe(true)

    fireEvent.click(screen.getByRole('button', { name: 'Check what would go' }))
    const summary = await screen.findByText(/^Loupe would redact/)
    expect(summary.textContent).toContain(`${dry.eventsRedacted.toLocaleString()} superseded snapshots`)
    expect(document.querySelectorAll('.compact-sessions tbody tr').length).toBeGreaterThan(0)
    await waitFor(() => expect(compact.disabled).toBe(false))

    fireEvent.click(compact)
    expect(await screen.findByText(/^Loupe redacted/)).toBeTruthy()
    expect(screen.getByText(/keeps its size until you reclaim space/)).toBeTruthy()
    expect(done).toBe(1)

    fireEvent.click(screen.getByRole('button', { name: 'Check what would go' }))
    expect(await screen.findByText(/^Loupe would redact 0 superseded snapshots in 0 sessions/)).toBeTruthy()
    expect(compact.disabled).toBe(true)
  })
})
