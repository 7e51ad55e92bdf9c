import { fireEvent, render, screen, waitFor } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { realApi, renderApp } from '../../../test/real-api'
import { sessionByTitle } from '../../../test/sessions'
import { SharedGallery } from '../../routes/shared-gallery'

const tiles = () => [...document.querySelectorAll<HTMLElement>('.gallery-tile')]
const captions = () => tiles().map((t) => [...t.querySelectorAll('.gallery-tile-caption > span')].map((s) => s.textContent).join(' '))

describe('Gallery tab (real api, real OpenCode fixture)', () => {
  it('shows the images of a session newest first, with their origin, and opens them in the lightbox', async () => {
    const session = await sessionByTitle(realApi(), 'Screenshot vs architecture diagram')
    const { history } = renderApp(`/sessions/${session.id}/gallery?storage=v1`)
    await waitFor(() => expect(tiles()).toHaveLength(2))
    expect(captions()).toEqual([expect.stringMatching(/^Read architecture\.png \d+ B$/), expect.stringMatching(/^Pasted screenshot-1\.png \d+ B$/)])
    expect(tiles()[0]!.querySelector('img')!.getAttribute('src')).toMatch(new RegExp(`^/api/sessions/${session.id}/images/[\\w-]+\\?storage=v1&size=256$`))
    expect(await screen.findByText('2 images')).toBeTruthy()

    fireEvent.click(tiles()[0]!.querySelector('button')!)
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer' })
    expect(viewer.querySelector('.lb-title')?.textContent).toBe('architecture.png')
    await waitFor(() => expect(history.get()).toMatch(/[?&]img=[\w-]+/))
    expect(viewer.querySelector<HTMLImageElement>('.lb-image')!.getAttribute('src')).toMatch(/&size=1024$/)
    expect(viewer.querySelector<HTMLAnchorElement>('a[download]')!.getAttribute('href')).toMatch(/&download=1$/)

    fireEvent.click(screen.getByRole('button', { name: 'Copy reference' }))
    expect(await screen.findByText(/docs\/architecture\.png/)).toBeTruthy()

    fireEvent.keyDown(viewer, { key: 'ArrowRight' })
    await waitFor(() => expect(viewer.querySelector('.lb-title')?.textContent).toBe('screenshot-1.png'))
    // a pasted image has no file in the project: no reference to copy
    expect(screen.queryByRole('button', { name: 'Copy reference' })).toBeNull()
    expect(viewer.textContent).toContain('Pasted into the conversation')
  })

  it('says so when a session has no images', async () => {
    const session = await sessionByTitle(realApi(), 'Slugify helper in slug-2.js')
    renderApp(`/sessions/${session.id}/gallery?storage=v1`)
    expect(await screen.findByText(/No images in this session/)).toBeTruthy()
  })

  it('says before creating a link that loopback is not the LAN, and offers no QR code for a loopback link', async () => {
    const session = await sessionByTitle(realApi(), 'Screenshot vs architecture diagram')
    renderApp(`/sessions/${session.id}/gallery?storage=v1`)
    fireEvent.click(await screen.findByRole('button', { name: 'Share…' }))
    await waitFor(() => expect(document.querySelector('.share-loopback')?.textContent).toContain('--host 0.0.0.0'))
    fireEvent.click(await screen.findByRole('button', { name: 'Create link' }))
    const input = await screen.findByLabelText('Share link')
    expect((input as HTMLInputElement).value).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]{43}$/)
    expect(screen.queryByRole('img', { name: 'QR code of the share link' })).toBeNull()
    expect(screen.getByText(/--host 0\.0\.0\.0/)).toBeTruthy()
    await waitFor(() => expect(document.querySelectorAll('.share-row[data-status="active"]').length).toBeGreaterThan(0))
  })
})

describe('SharedGallery (/s/<token>, no owner credentials)', () => {
  it('pages the shared images through /api/shared only', async () => {
    const api = realApi()
    const session = await sessionByTitle(api, 'Screenshot vs architecture diagram')
    const created = await api.shares.create.mutate({ sessionID: session.id, storage: 'v1', expiresIn: 600 })
    const token = created.url.split('/s/')[1]!
    render(() => <SharedGallery token={token} />)
    await waitFor(() => expect(tiles()).toHaveLength(2))
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Screenshot vs architecture diagram')
    for (const img of document.querySelectorAll('.gallery-tile img')) expect(img.getAttribute('src')).toMatch(new RegExp(`^/api/shared/${token}/images/[\\w-]+\\?size=256$`))
  })

  it('explains a revoked link and an unknown one', async () => {
    const api = realApi()
    const session = await sessionByTitle(api, 'Screenshot vs architecture diagram')
    const created = await api.shares.create.mutate({ sessionID: session.id, storage: 'v1', expiresIn: 600 })
    await api.shares.revoke.mutate({ id: created.share.id })
    const revoked = render(() => <SharedGallery token={created.url.split('/s/')[1]!} />)
    expect(await screen.findByText('This link no longer works')).toBeTruthy()
    revoked.unmount()
    render(() => <SharedGallery token={'x'.repeat(43)} />)
    expect(await screen.findByText('This link does not exist')).toBeTruthy()
  })
})
