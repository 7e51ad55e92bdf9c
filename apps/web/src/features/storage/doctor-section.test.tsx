import { Router } from '@solidjs/router'
import { screen, waitFor, within } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { renderWithApi } from '../../../test/real-api'
import { DoctorSection } from './doctor-section'

describe('DoctorSection', () => {
  it('shows the scan, then each chart with its table and the biggest sessions linking to their Bytes tab', async () => {
    renderWithApi(() => <Router root={() => <DoctorSection />} />)
    const section = screen.getByRole('region', { name: 'Where the bytes are' })
    await waitFor(() => expect(within(section).getByText(/Biggest sessions/)).toBeTruthy(), { timeout: 20_000 })
    // The figures a chart draws are in a table too (the canvas is hidden from screen readers).
    const eventTable = within(section).getByRole('table', { name: 'Event-log bytes by state' })
    expect(within(eventTable).getByRole('rowheader', { name: /superseded snapshots/ })).toBeTruthy()
    expect(within(section).getByRole('table', { name: 'Bytes by table' }).textContent).toContain('event')
    const links = within(section).getAllByRole('link').filter((a) => a.getAttribute('href')?.startsWith('/sessions/ses_'))
    expect(links.length).toBe(8)
    expect(links[0]?.getAttribute('href')).toMatch(/^\/sessions\/ses_\w+\/bytes\?storage=v1$/)
    expect(section.querySelector('canvas')?.closest('[aria-hidden="true"]')).toBeTruthy()
  })
})
