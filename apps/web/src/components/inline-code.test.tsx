import { render } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { InlineCode } from './inline-code'

describe('InlineCode', () => {
  it('keeps a short flag on one line and lets a long command wrap', () => {
    const long = 'opencode serve --port 4096 --hostname 127.0.0.1 --print-logs'
    const { container } = render(() => <InlineCode text={`Start Loupe with \`--opencode-url\`, or run \`${long}\`.`} />)
    const codes = [...container.querySelectorAll('code')]
    expect(codes.map((c) => [c.textContent, c.classList.contains('code-unbroken')])).toEqual([
      ['--opencode-url', true],
      [long, false],
    ])
    expect(container.textContent).toBe(`Start Loupe with --opencode-url, or run ${long}.`)
  })
})
