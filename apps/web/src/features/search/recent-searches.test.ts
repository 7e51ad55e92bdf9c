import { describe, expect, it } from 'vitest'
import { forgetSearches, MAX_RECENT, recentSearches, rememberSearch } from './recent-searches'

function memoryStore(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial))
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k), data }
}

describe('recent searches', () => {
  it('keeps searches newest first, one entry per query whatever its case or spacing, at most MAX_RECENT', () => {
    const store = memoryStore()
    rememberSearch(store, 'login bug')
    rememberSearch(store, '"exact phrase"')
    expect(rememberSearch(store, '  Login   BUG ')).toEqual(['Login BUG', '"exact phrase"'])
    for (let i = 0; i < MAX_RECENT + 3; i++) rememberSearch(store, `word${i}`)
    expect(recentSearches(store)).toHaveLength(MAX_RECENT)
    expect(recentSearches(store)[0]).toBe(`word${MAX_RECENT + 2}`)
    forgetSearches(store)
    expect(recentSearches(store)).toEqual([])
  })

  it('skips what searches nothing or is pasted text, and reads anything else under its key as none', () => {
    const store = memoryStore()
    expect(rememberSearch(store, '-draft')).toEqual([])
    expect(rememberSearch(store, 'x'.repeat(201))).toEqual([])
    expect(recentSearches(memoryStore({ 'loupe.recentSearches': '{not json' }))).toEqual([])
    expect(recentSearches(memoryStore({ 'loupe.recentSearches': '[1, "ok", null]' }))).toEqual(['ok'])
    expect(recentSearches(null)).toEqual([])
  })

  it('goes on without storage that throws', () => {
    const full = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError') }, removeItem: () => { throw new Error('blocked') } }
    expect(rememberSearch(full, 'login')).toEqual(['login'])
    expect(() => forgetSearches(full)).not.toThrow()
  })
})
