import { describe, expect, it } from 'vitest'
import { compareSessionKeys, parseSessionSort } from './session-sort.js'

describe('parseSessionSort', () => {
  it.each([
    [undefined, undefined, { sort: 'updated', order: 'desc' }],
    ['size', 'asc', { sort: 'size', order: 'asc' }],
    ['eventBytes', undefined, { sort: 'eventBytes', order: 'desc' }],
    ['SIZE', 'up', { sort: 'updated', order: 'desc' }],
    ['__proto__', 'constructor', { sort: 'updated', order: 'desc' }],
  ])('reads sort=%s order=%s as the known values or the default', (sort, order, expected) => {
    expect(parseSessionSort(sort, order)).toEqual(expected)
  })
})

describe('compareSessionKeys', () => {
  const keys = [
    { value: 5, id: 'b', rank: 1 },
    { value: 5, id: 'b', rank: 0 },
    { value: 5, id: 'a', rank: 0 },
    { value: 2, id: 'z', rank: 0 },
  ]
  it('orders by value, id, then generation, and ascending is the exact reverse of descending', () => {
    const desc = [...keys].sort((a, b) => compareSessionKeys(a, b, 'desc'))
    const asc = [...keys].sort((a, b) => compareSessionKeys(a, b, 'asc'))
    expect(desc).toEqual(keys)
    expect(asc).toEqual([...keys].reverse())
  })
})
