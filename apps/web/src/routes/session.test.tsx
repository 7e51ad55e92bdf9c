import { fireEvent, screen, waitFor, within } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { realApi, renderApp } from '../../test/real-api'
import { sessionByTitle } from '../../test/sessions'
import { targetOf, titleQueryOf } from './session'

describe('SessionRoute', () => {
  it('shows the header, subagents and the transcript of a real session', async () => {
    const session = await sessionByTitle(realApi(), 'Screenshot vs architecture diagram')
    renderApp(`/sessions/${session.id}?storage=v1`)
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Screenshot vs architecture diagram')
    expect(await screen.findByText('Find word counting code (@explore subagent)')).toBeTruthy()
    await waitFor(() => expect(document.querySelectorAll('[data-message-id]')).toHaveLength(4))
    expect(document.querySelectorAll('.thumb img')).toHaveLength(2)
  })

  it('opens the Bytes tab from the URL and draws the chart', async () => {
    const session = await sessionByTitle(realApi(), 'Slugify helper in slug-2.js')
    renderApp(`/sessions/${session.id}/bytes?storage=v1`)
    await waitFor(() => expect(document.querySelectorAll('svg.stacked-bar rect').length).toBeGreaterThan(3))
    expect(screen.getByRole('region', { name: 'By part type' }).textContent).toContain('Tool calls')
  })

  it('says so when the session does not exist', async () => {
    renderApp('/sessions/ses_missing0000000000000000?storage=v1')
    expect(await screen.findByText('Session not found')).toBeTruthy()
  })

  it.each(['Escape', 'Backspace'])('goes back with %s to the search results it was opened from, filters and all', async (key) => {
    const { history } = renderApp('/search?q=stdin&view=flat')
    await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(1))
    const box = await screen.findByPlaceholderText(/Search all history/)
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    fireEvent.keyDown(box, { key: 'Enter' })
    await waitFor(() => expect(document.querySelector('.session-name')?.textContent).toBe('Plan stdin support'))
    expect(history.get()).toMatch(/^\/sessions\/ses_\w+\?storage=v1&m=msg_\w+&part=prt_\w+&hl=stdin$/)
    // A tab of the same session is still the session the results opened.
    fireEvent.keyDown(document.body, { key: 'b' })
    await waitFor(() => expect(history.get()).toMatch(/\/bytes\?/))
    fireEvent.keyDown(document.body, { key: key })
    await waitFor(() => expect(history.get()).toBe('/search?q=stdin&view=flat'))
  })

  it('goes back to the session list with Esc when it was not opened from search results', async () => {
    const session = await sessionByTitle(realApi(), 'Plan stdin support')
    const { history } = renderApp('/search?q=stdin&view=flat')
    await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(1))
    // Opened from the results once, then from the list: the list is where it came from now.
    fireEvent.keyDown(await screen.findByPlaceholderText(/Search all history/), { key: 'Enter' })
    await waitFor(() => expect(document.querySelector('.session-name')?.textContent).toBe('Plan stdin support'))
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Sessions' }))
    fireEvent.click(await screen.findByRole('row', { name: /Plan stdin support/ }))
    await waitFor(() => expect(history.get()).toMatch(new RegExp(`^/sessions/${session.id}`)))
    fireEvent.keyDown(document.body, { key: 'Escape' })
    await waitFor(() => expect(history.get()).toMatch(/^\/sessions(\?sel=ses_\w+)?$/))
  })

  it('takes the transcript target from the URL as strings only: a repeated parameter is a list, and is dropped', () => {
    expect(targetOf({ m: 'msg_1', part: 'prt_1', hl: 'login bug' })).toEqual({ m: 'msg_1', part: 'prt_1', hl: 'login bug' })
    expect(targetOf({ m: 'msg_1', part: ['prt_1', 'prt_2'], hl: 'login' })).toEqual({ m: 'msg_1' })
    expect(targetOf({ m: 'msg_1', part: 'prt_1', hl: ['a', 'b'] })).toEqual({ m: 'msg_1', part: 'prt_1' })
    expect(targetOf({ m: 'msg_1', part: 'prt_1', hl: '   ' })).toEqual({ m: 'msg_1', part: 'prt_1' })
    expect(targetOf({ m: 'not an id', part: 'prt_1', hl: 'x' })).toEqual({})
  })

  it('reads a search without a part as a title hit\'s, for the title alone', () => {
    expect(titleQueryOf({ storage: 'v1', hl: 'watch mode' })).toBe('watch mode')
    expect(titleQueryOf({ m: 'msg_1', hl: 'watch mode' })).toBe('watch mode')
    expect(titleQueryOf({ m: 'msg_1', part: 'prt_1', hl: 'watch mode' })).toBeUndefined()
    expect(titleQueryOf({ hl: ['a', 'b'] })).toBeUndefined()
    expect(titleQueryOf({ hl: '  ' })).toBeUndefined()
  })
})
