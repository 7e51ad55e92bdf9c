import { describe, expect, it } from 'vitest'
import { markMatches, revealCut } from './search-marks'

describe('markMatches', () => {
  it('marks a prefix to the end of its token, as the result list does; markup splitting a token ends its mark', () => {
    const root = document.createElement('div')
    root.innerHTML = '<p>Add Pagination to the list</p><p>paginated, <code>paginat</code>e_me</p>'
    expect(markMatches(root, 'paginat*').map((r) => r.toString())).toEqual(['Pagination', 'paginated', 'paginat'])
    expect(markMatches(root, 'list').map((r) => r.toString())).toEqual(['list'])
  })
})

describe('revealCut', () => {
  it('shows a prefix match but not the whole of a long token it starts', () => {
    const text = `${'x '.repeat(3000)}aGVsbG8${'A'.repeat(100_000)} tail`
    expect(revealCut(text, 'aGVs*', 4000)).toBe(6000 + 2000 + 2000)
    expect(revealCut(`${'x '.repeat(3000)}pagination ${'y'.repeat(9000)}`, 'paginat*', 4000)).toBe(6010 + 2000)
  })
})
