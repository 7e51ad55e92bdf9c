import { screen, waitFor } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { realApi, renderApp } from '../../../test/real-api'
import { sessionByTitle } from '../../../test/sessions'

describe('ImagesConversationButtons in the gallery toolbar, against the real api (no OpenCode server configured)', () => {
  it('disables Open and New when no OpenCode server is known, and says why and how to start one beside them', async () => {
    const session = await sessionByTitle(realApi(), 'Repository tour')
    renderApp(`/sessions/${session.id}/gallery?storage=v1`)
    const panel = await screen.findByRole('group', { name: 'Images conversation' })
    await waitFor(() => expect(panel.textContent).toContain('Images conversation: none yet'))

    const open = screen.getByRole('button', { name: 'Open Images conversation' })
    const create = screen.getByRole('button', { name: 'New' })
    await waitFor(() => expect(open.hasAttribute('disabled')).toBe(true))
    expect(create.hasAttribute('disabled')).toBe(true)
    const noteId = open.getAttribute('aria-describedby')
    expect(noteId).toBeTruthy()
    expect(create.getAttribute('aria-describedby')).toBe(noteId)
    const note = document.getElementById(noteId!)
    expect(note?.textContent).toContain('Creating one needs OpenCode\'s server')
    // The fix, as commands that copy whole: the flag never breaks at its hyphen.
    const codes = [...(note?.querySelectorAll('code') ?? [])]
    expect(codes.map((c) => c.textContent)).toEqual(['opencode serve --port 4096', '--opencode-url http://127.0.0.1:4096'])
    expect(codes.every((c) => c.classList.contains('code-unbroken'))).toBe(true)
  })
})
