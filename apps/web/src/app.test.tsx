import { fireEvent, screen, waitFor, within } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { realApi, renderApp } from '../test/real-api'

describe('App', () => {
  it('lists the real sessions when the api accepts the token', async () => {
    renderApp('/sessions')
    expect(await screen.findByText('Repository tour')).toBeTruthy()
    expect(screen.getByText('Screenshot vs architecture diagram')).toBeTruthy()
  })

  it('asks for the access link when the api answers 401', async () => {
    renderApp('/sessions', realApi(null))
    expect(await screen.findByText('Loupe needs its access link')).toBeTruthy()
    expect(screen.getByText(/npm start/)).toBeTruthy()
  })

  describe('the last search', () => {
    /** Search, then leave for the session list. */
    async function searchThenLeave() {
      const rendered = renderApp('/search?q=stdin&view=flat&kinds=text')
      await waitFor(() => expect(document.querySelectorAll('.hit').length).toBeGreaterThan(0))
      fireEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Sessions' }))
      expect(await screen.findByText('Repository tour')).toBeTruthy()
      return rendered
    }
    const box = () => screen.findByPlaceholderText<HTMLInputElement>(/Search all history/)

    it('comes back with /, its query selected so that typing replaces it', async () => {
      const { history } = await searchThenLeave()
      fireEvent.keyDown(document.body, { key: '/' })
      await waitFor(() => expect(history.get()).toBe('/search?q=stdin&view=flat&kinds=text'))
      const input = await box()
      await waitFor(() => expect(document.activeElement).toBe(input))
      expect([input.value, input.selectionStart, input.selectionEnd]).toEqual(['stdin', 0, 5])
    })

    it('comes back with the Search link, its query selected', async () => {
      const { history } = await searchThenLeave()
      fireEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: /Search/ }))
      await waitFor(() => expect(history.get()).toBe('/search?q=stdin&view=flat&kinds=text'))
      const input = await box()
      await waitFor(() => expect(document.activeElement).toBe(input))
      expect([input.selectionStart, input.selectionEnd]).toEqual([0, 5])
    })

    it('takes keys typed right after / as its new words, keeping its filters', async () => {
      const { history } = await searchThenLeave()
      fireEvent.keyDown(document.body, { key: '/' })
      for (const key of 'tal') fireEvent.keyDown(document.body, { key })
      await waitFor(() => expect(history.get()).toBe('/search?q=tal&view=flat&kinds=text'))
      const input = await box()
      await waitFor(() => expect(input.value).toBe('tal'))
      await waitFor(() => expect(document.activeElement).toBe(input))
      // Typing goes on after what was caught, not over it.
      expect([input.selectionStart, input.selectionEnd]).toEqual([3, 3])
    })
  })
})
