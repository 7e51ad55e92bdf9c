import { fireEvent, render } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { ClippedText } from './clipped-text'

const long = `${'x'.repeat(5000)} the Quetzal config ${'y'.repeat(100)}`

describe('ClippedText', () => {
  it('cuts long text and shows the rest on demand', () => {
    const { container, getByRole } = render(() => <ClippedText text={long} limit={4000} />)
    expect(container.querySelector('pre')!.textContent).toHaveLength(4000)
    fireEvent.click(getByRole('button', { name: /Show all/ }))
    expect(container.querySelector('pre')!.textContent).toBe(long)
  })

  it('moves the cut past the first match of the search that led here (case and accents folded)', () => {
    const { container, queryByRole } = render(() => <ClippedText text={long} limit={4000} reveal="quetzál" />)
    expect(container.querySelector('pre')!.textContent).toBe(long)
    expect(queryByRole('button')).toBeNull()
    const huge = `${'x'.repeat(5000)} the quetzal ${'y'.repeat(100_000)}`
    const { container: big, getByRole } = render(() => <ClippedText text={huge} limit={4000} reveal="quetzal" />)
    const shown = big.querySelector('pre')!.textContent!
    expect(shown.endsWith(`the quetzal ${'y'.repeat(2000 - 1)}`)).toBe(true)
    expect(getByRole('button', { name: /Show all/ }).textContent).toContain((huge.length - shown.length).toLocaleString())
  })

  it('stays cut when the match is already shown, or is not in this text', () => {
    const early = `the quetzal ${'x'.repeat(5000)}`
    const { container: a } = render(() => <ClippedText text={early} limit={4000} reveal="quetzal" />)
    expect(a.querySelector('pre')!.textContent).toHaveLength(4000)
    const { container: b } = render(() => <ClippedText text={long} limit={4000} reveal="ocelot" />)
    expect(b.querySelector('pre')!.textContent).toHaveLength(4000)
  })
})
