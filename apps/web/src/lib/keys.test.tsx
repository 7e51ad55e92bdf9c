import { render } from '@solidjs/testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { useKeys } from './keys'

function Page(props: { seen: string[] }) {
  useKeys((event) => props.seen.push(event.key))
  return <button type="button">page</button>
}

afterEach(() => document.body.replaceChildren())

describe('useKeys', () => {
  it('hands a key on the body to the page when no dialog is open', () => {
    const seen: string[] = []
    render(() => <Page seen={seen} />)
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    expect(seen).toEqual(['Escape'])
  })

  it('keeps Escape from the page while a dialog is open, even when the focus fell to the body', () => {
    const seen: string[] = []
    render(() => <Page seen={seen} />)
    const dialog = document.createElement('dialog')
    dialog.setAttribute('open', '')
    document.body.append(dialog)
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    expect(seen).toEqual([])
    dialog.remove()
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
    expect(seen).toEqual(['Escape'])
  })
})
