import { fireEvent, screen, waitFor } from '@solidjs/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderApp } from '../../test/real-api'

const marks = () => [...document.querySelectorAll('.hit-snippet mark')].map((m) => m.textContent?.toLowerCase())

/** Hold every search request until `release` is called; the rest of the api answers as usual. */
function holdSearches() {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  const fetch = window.fetch.bind(window)
  vi.spyOn(window, 'fetch').mockImplementation(async (input, init) => {
    if (String(input instanceof Request ? input.url : input).includes('history.search')) await held
    return fetch(input, init)
  })
  return release
}

describe('SearchRoute', () => {
  afterEach(() => vi.restoreAllMocks())

  it('shows ranked hits with highlighted snippets for a query in the URL', async () => {
    renderApp('/search?q=stdin')
    await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(0))
    expect(marks()).toContain('stdin')
    expect(document.querySelector('.page-summary')?.textContent).toMatch(/result|match/)
    expect(document.querySelector('.hit-group-title')?.textContent).toBeTruthy()
  })

  it('renders stored markup as text, never as HTML', async () => {
    renderApp('/search?q=%22type%20file%22&view=flat')
    await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(0))
    const snippet = document.querySelector('.hit-snippet')!
    expect(snippet.querySelector('path, type, content')).toBeNull()
    expect(snippet.innerHTML).toMatch(/&lt;/)
  })

  it('searches as you type, keeps the query in the URL, and opens a hit at its part with Enter', async () => {
    const { history } = renderApp('/search')
    const box = await screen.findByPlaceholderText(/Search all history/)
    fireEvent.input(box, { target: { value: 'readFileSync' } })
    await waitFor(() => expect(history.get()).toContain('q=readFileSync'))
    await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(1))
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    const second = document.querySelector('.hit.selected')
    expect(second?.getAttribute('data-index')).not.toBe('0')
    fireEvent.keyDown(box, { key: 'Enter' })
    await waitFor(() => expect(history.get()).toMatch(/^\/sessions\/ses_\w+\?storage=v[12]&m=msg_\w+(&part=\w+&hl=readFileSync)?$/))
  })

  it('leaves arrows and j/k to a focused filter menu', async () => {
    renderApp('/search?q=stdin')
    await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(1))
    const selected = () => document.querySelector('.hit.selected')?.getAttribute('data-index')
    const before = selected()
    const when = screen.getByRole('combobox', { name: 'When' })
    const tool = screen.getByRole('combobox', { name: 'Tool' })
    when.focus()
    // fireEvent answers false when a listener took the key (preventDefault): the menu would not move.
    expect(fireEvent.keyDown(when, { key: 'ArrowDown' })).toBe(true)
    tool.focus()
    expect(fireEvent.keyDown(tool, { key: 'j' })).toBe(true)
    expect(fireEvent.keyDown(tool, { key: 'ArrowUp' })).toBe(true)
    expect(selected()).toBe(before)
    // The search box is the one field whose arrows walk the results.
    expect(fireEvent.keyDown(screen.getByPlaceholderText(/Search all history/), { key: 'ArrowDown' })).toBe(false)
  })

  it('moves focus with the highlight from a group header or a row, so Enter opens the highlighted hit', async () => {
    const { history } = renderApp('/search?q=file')
    await waitFor(() => expect(document.querySelectorAll('.hit-group').length).toBeGreaterThan(2))
    const [above, group] = [...document.querySelectorAll('.hit-group')] as [Element, Element]
    const header = group.querySelector<HTMLElement>('.hit-group-title')!
    header.focus()
    const press = (key: string) => fireEvent.keyDown(document.activeElement!, { key })
    // Down from a header: its first row, whatever was selected before.
    press('ArrowDown')
    const first = group.querySelector('.hit')!
    expect(document.activeElement).toBe(first)
    expect(first.classList.contains('selected')).toBe(true)
    press('j')
    expect(document.activeElement).not.toBe(first)
    expect(document.activeElement?.classList.contains('selected')).toBe(true)
    press('k')
    expect(document.activeElement).toBe(first)
    // Up from a group's first row: the last row of the group above.
    press('ArrowUp')
    const last = [...above.querySelectorAll('.hit')].at(-1)!
    expect(document.activeElement).toBe(last)
    expect(last.classList.contains('selected')).toBe(true)
    press('Enter')
    await waitFor(() => expect(history.get()).toBe(last.getAttribute('href')))
  })

  it('shows the results of the search before as stale, with no clean-up for them, until this search answers', async () => {
    renderApp('/search?q=stdin')
    await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(0))
    const cleanup = await screen.findByRole<HTMLButtonElement>('button', { name: 'Clean up matching…' })
    const busy = (selector: string) => document.querySelector(selector)?.getAttribute('aria-busy') ?? null
    expect([busy('.hit-groups'), busy('.page-summary'), cleanup.disabled]).toEqual([null, null, false])
    const release = holdSearches()
    fireEvent.click(screen.getByRole('button', { name: 'Reasoning' }))
    await waitFor(() => expect(busy('.hit-groups')).toBe('true'))
    expect([busy('.page-summary'), cleanup.disabled, !!document.querySelector('.search-busy')]).toEqual(['true', true, true])
    // The old hits stay readable meanwhile; they are only marked.
    expect(document.querySelectorAll('.hit').length).toBeGreaterThan(0)
    release()
    await waitFor(() => expect(busy('.hit-groups')).toBeNull())
    expect([busy('.page-summary'), cleanup.disabled, !!document.querySelector('.search-busy')]).toEqual([null, false, false])
  })

  it('offers no clean-up for what was typed until it is searched, and cleans up only what it planned', async () => {
    renderApp('/search?q=stdin')
    await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(0))
    const cleanup = await screen.findByRole<HTMLButtonElement>('button', { name: 'Clean up matching…' })
    expect(cleanup.disabled).toBe(false)
    // Typed, not yet searched (the pause before the request): the results are still stdin's.
    fireEvent.input(screen.getByPlaceholderText(/Search all history/), { target: { value: 'readFileSync' } })
    expect(cleanup.disabled).toBe(true)
    await waitFor(() => expect(cleanup.disabled).toBe(false))
    fireEvent.click(cleanup)
    const dialog = await screen.findByRole('dialog')
    await waitFor(() => expect(dialog.querySelector('h2')?.textContent).toMatch(/match “readFileSync”/))
  })

  it('says a link whose session or project is no id holds nothing to search, never searching everywhere instead', async () => {
    const { history } = renderApp('/search?q=stdin&session=../../etc')
    expect(await screen.findByText('Nothing to search in there')).toBeTruthy()
    expect(document.querySelector('.empty-state')?.textContent).toContain('“../../etc” is not a session id')
    expect(document.querySelectorAll('.hit').length).toBe(0)
    fireEvent.click(screen.getByRole('button', { name: 'Search everywhere' }))
    await waitFor(() => expect(history.get()).toBe('/search?q=stdin'))
    await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(0))
    renderApp('/search?q=stdin&project=%2Fhome%2Fdev')
    await waitFor(() => expect(screen.getAllByText('Nothing to search in there').length).toBe(1))
    // The project menu names it as unknown, not "All projects".
    await waitFor(() => expect(screen.getAllByRole<HTMLSelectElement>('combobox', { name: 'Project' }).at(-1)?.selectedOptions[0]?.textContent).toBe('Unknown project'))
  })

  it('filters by kind and explains an empty answer', async () => {
    const { history } = renderApp('/search?q=stdin')
    await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(0))
    fireEvent.click(screen.getByRole('button', { name: 'Tool' }))
    await waitFor(() => expect(history.get()).toContain('kinds=tool'))
    await waitFor(() => expect([...document.querySelectorAll('.hit-kind')].every((k) => k.textContent?.startsWith('Tool'))).toBe(true))
    renderApp('/search?q=zzzqqq-nothing-here')
    expect(await screen.findByText('No matches')).toBeTruthy()
  })

  it('opens with / from anywhere', async () => {
    const { history } = renderApp('/sessions')
    await screen.findByText('Repository tour')
    fireEvent.keyDown(document.body, { key: '/' })
    await waitFor(() => expect(history.get()).toBe('/search'))
    expect(await screen.findByText('Search everything OpenCode kept')).toBeTruthy()
  })
})
