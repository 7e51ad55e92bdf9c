import { describe, expect, it } from 'vitest'
import { runRange, textRuns } from './text-runs'

const rendered = (html: string, attached = true) => {
  const root = document.createElement('div')
  root.innerHTML = html
  if (attached) document.body.append(root)
  return root
}

describe('textRuns', () => {
  it('joins text that only inline elements separate, and starts a run at each block', () => {
    const runs = textRuns(rendered('<p>a <em>b</em> <code>c</code></p><p>d</p>text<br>tail'))
    expect(runs.map((r) => r.text)).toEqual(['a b c', 'd', 'text', 'tail'])
    expect(runs[0]!.starts).toEqual([0, 2, 3, 4])
  })

  it('reads inline elements by tag where no style is computed (outside the document)', () => {
    expect(textRuns(rendered('<p>a<b>b</b></p><div>c</div>', false)).map((r) => r.text)).toEqual(['ab', 'c'])
  })

  it('starts a new run past maxChars', () => {
    expect(textRuns(rendered('<p>abc<i>def</i><i>gh</i></p>'), 5).map((r) => r.text)).toEqual(['abcde', 'gh'])
  })
})

describe('runRange', () => {
  it('maps offsets of the joined text back to nodes; an end on a node boundary stays in the node before', () => {
    const [run] = textRuns(rendered('<p>ab<i></i><i>cd</i>ef</p>'))
    const range = runRange(run!, 2, 4)
    expect(range.toString()).toBe('cd')
    expect(runRange(run!, 0, 2).endContainer.textContent).toBe('ab')
    expect(runRange(run!, 1, 5).toString()).toBe('bcde')
  })
})
