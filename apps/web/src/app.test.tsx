import { screen } from '@solidjs/testing-library'
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
})
