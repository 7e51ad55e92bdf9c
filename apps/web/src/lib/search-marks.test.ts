import { describe, expect, it } from 'vitest'
import { markMatches, revealCut } from './search-marks'

describe('markMatches', () => {
  const rendered = (html: string) => {
    const root = document.createElement('div')
    root.innerHTML = html
    document.body.append(root)
    return root
  }
  const marked = (root: Element, query: string) => markMatches(root, query).map((r) => r.toString())

  it('marks a prefix to the end of its token, as the result list does, across inline markup too', () => {
    const root = rendered('<p>Add Pagination to the list</p><p>paginated, <code>paginat</code>e_me</p>')
    expect(marked(root, 'paginat*')).toEqual(['Pagination', 'paginated', 'paginate'])
    expect(marked(root, 'list')).toEqual(['list'])
  })

  it('marks a phrase that inline markup splits, as the index matched it in the raw text', () => {
    const root = rendered('<p>run <strong>the build</strong> again</p><ul><li>run the</li><li>build</li></ul>')
    const ranges = markMatches(root, '"run the build"')
    expect(ranges.map((r) => r.toString())).toEqual(['run the build'])
    expect(ranges[0]!.startContainer.textContent).toBe('run ')
    expect(ranges[0]!.endContainer.textContent).toBe('the build')
  })

  it('never joins words across blocks or line breaks', () => {
    expect(marked(rendered('<div>foo</div><div>bar</div><p>foo<br>bar</p>'), 'foobar')).toEqual([])
    expect(marked(rendered('<div>foo<div>x</div>bar</div>'), 'foobar')).toEqual([])
  })

  it('still marks a token that markup alone separated in the raw text (**foo**bar)', () => {
    expect(marked(rendered('<p><strong>foo</strong>bar and more</p>'), 'bar*')).toEqual(['bar'])
    expect(marked(rendered('<p><strong>foo</strong>bar and more</p>'), 'foobar')).toEqual(['foobar'])
  })
})

describe('revealCut', () => {
  it('shows a prefix match but not the whole of a long token it starts', () => {
    const text = `${'x '.repeat(3000)}aGVsbG8${'A'.repeat(100_000)} tail`
    expect(revealCut(text, 'aGVs*', 4000)).toBe(6000 + 2000 + 2000)
    expect(revealCut(`${'x '.repeat(3000)}pagination ${'y'.repeat(9000)}`, 'paginat*', 4000)).toBe(6010 + 2000)
  })
})
