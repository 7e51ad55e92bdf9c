import { fireEvent, screen, waitFor } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { renderApp } from '../../test/real-api'

const titles = () => [...document.querySelectorAll('.session-title-text')].map((el) => el.textContent)

describe('SessionsRoute', () => {
  it('filters by title as you type and keeps the search in the URL', async () => {
    const { history } = renderApp('/sessions')
    await screen.findByText('Repository tour')
    fireEvent.input(screen.getByPlaceholderText('Filter by title…'), { target: { value: 'config' } })
    await waitFor(() => expect(titles()).toEqual(['Config loader startup error']))
    expect(history.get()).toContain('q=config')
  })

  it('restores filters from the URL and explains an empty result', async () => {
    renderApp('/sessions?q=zzz-nothing')
    expect(await screen.findByText('No sessions match')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }))
    expect(await screen.findByText('Repository tour')).toBeTruthy()
  })

  it('hides subagent sessions unless asked, and filters by project', async () => {
    renderApp('/sessions')
    await screen.findByText('Repository tour')
    expect(titles()).not.toContain('Find word counting code (@explore subagent)')
    fireEvent.click(screen.getByLabelText('Subagents'))
    await screen.findByText('Find word counting code (@explore subagent)')

    const select = screen.getByLabelText('Project') as HTMLSelectElement
    await waitFor(() => expect(select.options.length).toBeGreaterThan(1))
    const tally2 = [...select.options].find((o) => o.textContent?.startsWith('tally-2'))
    fireEvent.change(select, { target: { value: tally2?.value } })
    await waitFor(() => expect(titles()).not.toContain('Repository tour'))
    expect(titles()).toContain('Screenshot vs architecture diagram')
  })

  it('moves the selection with j and k and opens it with Enter', async () => {
    const { history } = renderApp('/sessions')
    await screen.findByText('Repository tour')
    fireEvent.keyDown(document.body, { key: 'j' })
    fireEvent.keyDown(document.body, { key: 'j' })
    fireEvent.keyDown(document.body, { key: 'k' })
    const selected = document.querySelector('.session-row.selected')
    expect(selected).toBe(document.querySelectorAll('.session-row')[1])
    // A focused button keeps its Enter: the list does not open the selected session over it.
    const button = document.querySelector<HTMLButtonElement>('header button, .app-header button')!
    button.focus()
    expect(fireEvent.keyDown(button, { key: 'Enter' })).toBe(true)
    expect(history.get()).toBe('/sessions')
    // j from that button hands the focus to the selected row: Enter then opens it.
    fireEvent.keyDown(button, { key: 'j' })
    expect(document.activeElement).toBe(document.querySelector('.session-row.selected'))
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' })
    await waitFor(() => expect(history.get()).toMatch(/^\/sessions\/ses_\w+\?storage=v[12]$/))
  })

  it('sorts by a column header either way, keeps the sort in the URL and restores it on reload', async () => {
    const { history, unmount } = renderApp('/sessions')
    await screen.findByText('Repository tour')
    const sizeHeader = () => screen.getByRole('button', { name: /^Size/ })
    fireEvent.click(sizeHeader())
    await waitFor(() => expect(history.get()).toContain('sort=size&order=desc'))
    await waitFor(() => expect(sizeHeader().closest('[role=columnheader]')?.getAttribute('aria-sort')).toBe('descending'))
    const sizes = () => [...document.querySelectorAll<HTMLElement>('.session-row')].map((row) => row.dataset.sessionId)
    await waitFor(() => expect(document.querySelector('.session-rows.stale')).toBeNull())
    const descending = sizes()
    fireEvent.click(sizeHeader())
    await waitFor(() => expect(history.get()).toContain('sort=size&order=asc'))
    await waitFor(() => expect(sizes()).toEqual([...descending].reverse()))
    unmount()

    renderApp('/sessions?sort=size&order=asc')
    await waitFor(() => expect(screen.getByRole('button', { name: /^Size/ }).closest('[role=columnheader]')?.getAttribute('aria-sort')).toBe('ascending'))
    await waitFor(() => expect(sizes()).toEqual([...descending].reverse()))
  })

  it('shows exact totals of the filtered list, and project counts that agree with it', async () => {
    renderApp('/sessions')
    await screen.findByText('Repository tour')
    const summary = () => document.querySelector('.page-summary')?.textContent ?? ''
    await waitFor(() => expect(summary()).toMatch(/^\d[\d,]* sessions? · [\d.]+ [KMG]?B · [\d.]+[kM]? tokens/))
    expect(summary()).not.toContain('+')
    const count = Number(summary().split(' ')[0]!.replace(/,/g, ''))
    const select = screen.getByLabelText('Project') as HTMLSelectElement
    await waitFor(() => expect(select.options.length).toBeGreaterThan(1))
    const counts = [...select.options].slice(1).map((o) => Number(/\((\d+)\)$/.exec(o.textContent ?? '')?.[1]))
    expect(counts.reduce((a, b) => a + b, 0)).toBe(count)
  })
})
