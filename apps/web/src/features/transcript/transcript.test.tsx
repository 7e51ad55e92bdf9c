import { fireEvent, screen, waitFor } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { realApi, renderWithApi } from '../../../test/real-api'
import { sessionByTitle } from '../../../test/sessions'
import { Transcript } from './transcript'

const rendered = () => [...document.querySelectorAll<HTMLElement>('[data-message-id]')].map((el) => el.dataset.messageId)

describe('Transcript', () => {
  it('opens at the latest page and loads earlier pages on demand', async () => {
    const api = realApi()
    const session = await sessionByTitle(api, 'Slugify helper in slug-2.js')
    const all = await api.sessions.messages.query({ sessionID: session.id, storage: 'v1', anchor: 'earliest', limit: 50 })
    const ids = all.messages.map((m) => m.id as string)
    expect(ids).toHaveLength(16)

    renderWithApi(() => <Transcript session={{ sessionID: session.id, storage: 'v1' }} target={{}} pageSize={4} />, api)
    await waitFor(() => expect(rendered()).toEqual(ids.slice(-4)))
    fireEvent.click(await screen.findByRole('button', { name: 'Load earlier messages' }))
    await waitFor(() => expect(rendered()).toEqual(ids.slice(-8)))
    expect(screen.queryByText(/Start of session/)).toBeNull()
  })

  it('opens around ?m= and marks the part named by &part=', async () => {
    const api = realApi()
    const session = await sessionByTitle(api, 'Repository tour')
    const page = await api.sessions.messages.query({ sessionID: session.id, storage: 'v1', anchor: 'earliest', limit: 50 })
    const target = page.messages.find((m) => m.storage === 'v1' && m.parts.some((p) => p.type === 'tool'))
    if (target?.storage !== 'v1') throw new Error('fixture has no tool message')
    const part = target.parts.find((p) => p.type === 'tool')?.id as string

    renderWithApi(() => <Transcript session={{ sessionID: session.id, storage: 'v1' }} target={{ m: target.id, part }} pageSize={2} />, api)
    await waitFor(() => expect(rendered()).toContain(target.id))
    const highlighted = document.querySelector(`[data-part="${part}"]`)
    expect(highlighted?.classList.contains('highlighted')).toBe(true)
    expect(highlighted?.querySelector('.collapsible-body')).not.toBeNull()
  })

  it('shows an error with a retry when the session cannot be read', async () => {
    renderWithApi(() => <Transcript session={{ sessionID: 'ses_missing000000000000000', storage: 'v1' }} target={{}} />)
    expect(await screen.findByRole('alert')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
  })
})
