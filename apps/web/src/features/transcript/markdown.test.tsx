import { render } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { Markdown, renderMarkdown } from './markdown'

describe('renderMarkdown', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;'],
    ['<img src=x onerror="alert(1)">', '&lt;img'],
    ['<a href="javascript:alert(1)">x</a>', '&lt;a href'],
  ])('escapes raw HTML %s', (source, escaped) => {
    const html = renderMarkdown(source)
    expect(html).toContain(escaped)
    expect(html).not.toMatch(/<(script|img|a)\b/)
  })

  it('refuses javascript: and data:text links but keeps https links, opening them in a new tab', () => {
    expect(renderMarkdown('[x](javascript:alert(1))')).not.toContain('href')
    expect(renderMarkdown('[x](data:text/html,<script>alert(1)</script>)')).not.toContain('href=')
    const html = renderMarkdown('[docs](https://opencode.ai)')
    expect(html).toContain('href="https://opencode.ai"')
    expect(html).toContain('rel="noopener noreferrer nofollow"')
  })

  it('renders code, lists and emphasis', () => {
    const html = renderMarkdown('**bold** `code`\n\n- one\n- two\n\n```js\nlet x = 1 < 2\n```')
    expect(html).toContain('<strong>bold</strong>')
    expect(html).toContain('<code>code</code>')
    expect(html).toContain('<li>one</li>')
    expect(html).toContain('let x = 1 &lt; 2')
  })
})

describe('Markdown', () => {
  it('puts no element from the source into the DOM', () => {
    const { container } = render(() => <Markdown text={'hi <b onclick="x()">there</b> <iframe src="https://evil"></iframe>'} />)
    expect(container.querySelector('b, iframe, [onclick]')).toBeNull()
    expect(container.textContent).toContain('<iframe')
  })
})
