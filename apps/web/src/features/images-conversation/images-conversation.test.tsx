import { fireEvent, screen, waitFor } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { realApi, renderApp } from '../../../test/real-api'
import { sessionByTitle } from '../../../test/sessions'

describe('ImagesConversationButtons in the gallery toolbar, against the real api (no OpenCode server configured)', () => {
  it('says none exists yet and what creating one needs, then that nothing was created', async () => {
    const session = await sessionByTitle(realApi(), 'Repository tour')
    renderApp(`/sessions/${session.id}/gallery?storage=v1`)
    const panel = await screen.findByRole('group', { name: 'Images conversation' })
    await waitFor(() => expect(panel.textContent).toContain('Images conversation: none yet'))
    expect(panel.querySelector('.images-convo-chip')?.getAttribute('title')).toContain('Creating one needs OpenCode\'s server (opencode serve')

    fireEvent.click(screen.getByRole('button', { name: 'Open Images conversation' }))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('OpenCode is unavailable — nothing was created')
    expect(alert.textContent).toContain('No OpenCode server is configured')
    expect([...alert.querySelectorAll('code')].map((c) => c.textContent)).toContain('--opencode-url http://127.0.0.1:4096')
    expect(alert.closest('dialog')?.getAttribute('aria-label')).toBe('Images conversation')
    expect(panel.textContent).toContain('Images conversation: none yet')
  })
})
