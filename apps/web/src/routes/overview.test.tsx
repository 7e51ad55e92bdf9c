import { fireEvent, screen, waitFor, within } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { renderApp } from '../../test/real-api'

const usageRegion = () => screen.findByRole('region', { name: 'Usage over time' }, { timeout: 20_000 })

describe('OverviewRoute', () => {
  it('charts the usage of the real fixture with a table for each chart, and links the biggest sessions to their Bytes tab', async () => {
    renderApp('/overview?range=all')
    const region = await usageRegion()
    const tokens = await within(region).findByRole('table', { name: /^Tokens per day by model, all time/ }, { timeout: 20_000 })
    expect(within(tokens).getByRole('columnheader', { name: 'scripted' })).toBeTruthy()
    expect(within(region).getByRole('table', { name: /^Cost in dollars per day by model/ })).toBeTruthy()
    const links = within(region).getAllByRole('link').filter((a) => /^\/sessions\/ses_\w+\/bytes\?storage=v[12]$/.test(a.getAttribute('href') ?? ''))
    expect(links.length).toBeGreaterThan(3)
    expect(within(region).getByText('Repository tour')).toBeTruthy()
    // The two experimental-engine sessions record tokens their own totals leave at 0: the page says so.
    expect(within(region).getByText(/2 sessions of 8 record other totals/)).toBeTruthy()
    expect(region.querySelector('canvas')?.closest('[aria-hidden="true"]')).toBeTruthy()
  })

  it('keeps the range, the bucket and the stacking in the URL', async () => {
    const { history } = renderApp('/overview')
    const region = await usageRegion()
    await waitFor(() => expect(within(region).getByRole('table', { name: /^Tokens per day by model, the last 30 days/ })).toBeTruthy(), { timeout: 20_000 })
    fireEvent.click(screen.getByRole('radio', { name: 'By project' }))
    await waitFor(() => expect(history.get()).toContain('by=project'))
    await waitFor(() => expect(within(region).getByRole('table', { name: /^Tokens per day by project/ })).toBeTruthy())
    fireEvent.click(screen.getByRole('radio', { name: 'Per week' }))
    fireEvent.click(screen.getByRole('radio', { name: '90 days' }))
    await waitFor(() => expect(history.get()).toMatch(/range=90/))
    expect(history.get()).toMatch(/interval=week/)
    const table = await within(region).findByRole('table', { name: /^Tokens per week by project, the last 90 days/ })
    expect(within(table).getAllByRole('rowheader')[0]?.textContent).toMatch(/^Week of /)
    expect((screen.getByRole('radio', { name: '90 days' }) as HTMLInputElement).checked).toBe(true)
  })

  it("shows the doctor's figures and what the default clean-up would save, with the way to the Storage page", async () => {
    renderApp('/overview')
    const bytes = await screen.findByRole('region', { name: 'Where the bytes are' }, { timeout: 20_000 })
    await waitFor(() => expect(within(bytes).getByRole('table', { name: 'Bytes of the current parts by content' })).toBeTruthy(), { timeout: 20_000 })
    expect(within(bytes).getByRole('link', { name: 'The full report' }).getAttribute('href')).toBe('/storage')
    const clean = screen.getByRole('region', { name: 'What a clean-up would save' })
    expect(within(clean).getByRole('link', { name: /Review and clean up/ }).getAttribute('href')).toBe('/storage#clean-up')
    // The fixture's sessions are from today, so none is idle for 30 days.
    await waitFor(() => expect(within(clean).getByText(/No session idle for 30 days/)).toBeTruthy(), { timeout: 20_000 })
  })
})
