import { QUERY_LIMITS } from '@loupe/domain'
import { createRoot } from 'solid-js'
import { createStore } from 'solid-js/store'
import { describe, expect, it } from 'vitest'
import { createSearchQuery, type SearchParams } from './search-params'

const SESSION = 'ses_3a1f0c2b4ffeZk8Q2m9xWc1vTt'
const PROJECT = '4b0ea68d7af9a6031a7ffda7ad66e0cb83315750'

function read(initial: SearchParams) {
  return createRoot((dispose) => {
    const [params, setParams] = createStore<SearchParams>(initial)
    const q = createSearchQuery(params, () => Date.UTC(2026, 10, 30, 12, 34, 56, 789))
    return { q, setParams, dispose }
  })
}

describe('createSearchQuery', () => {
  it('turns the URL into one request, ignoring values it does not know', () => {
    const { q, dispose } = read({ q: '  login bug ', kinds: 'tool,bogus,text', tool: 'bash', project: PROJECT, session: SESSION, storage: 'v9', when: 'day', view: 'grid' })
    expect(q.input()).toEqual({
      query: 'login bug', kinds: ['tool', 'text'], tool: 'bash', projectID: PROJECT, sessionID: SESSION,
      // A day before, rounded down to the minute.
      since: Date.UTC(2026, 10, 29, 12, 34),
    })
    expect(q.view()).toBe('sessions')
    dispose()
  })

  it('asks nothing for a query that selects nothing, and shortens a long one', () => {
    const { q, setParams, dispose } = read({ q: '-draft' })
    expect(q.input()).toBeNull()
    expect(q.parsed().terms).toHaveLength(1)
    setParams({ q: '"" ***' })
    expect(q.input()).toBeNull()
    setParams({ q: 'a'.repeat(QUERY_LIMITS.sentChars + 10), storage: 'v2', view: 'flat' })
    expect(q.input()).toEqual({ query: 'a'.repeat(QUERY_LIMITS.sentChars) })
    expect(q.sessionScope()).toBeNull()
    expect(q.view()).toBe('flat')
    setParams({ session: SESSION })
    expect(q.sessionScope()).toEqual({ sessionID: SESSION, storage: 'v2' })
    dispose()
  })

  it.each([
    [{ session: '../../etc' }, { key: 'session', value: '../../etc' }],
    [{ session: 'ses 1', storage: 'v1' }, { key: 'session', value: 'ses 1' }],
    [{ project: '/home/dev/code', session: SESSION }, { key: 'project', value: '/home/dev/code' }],
  ])('searches nothing, rather than all history, for a scope that is no id: %o', (scope, malformed) => {
    const { q, setParams, dispose } = read({ q: 'stdin', ...scope })
    expect(q.malformedScope()).toEqual(malformed)
    expect(q.input()).toBeNull()
    // A well-formed id is the server's to look up, and an empty value is no scope at all.
    setParams({ session: SESSION, project: '' })
    expect(q.malformedScope()).toBeNull()
    expect(q.input()).toMatchObject({ query: 'stdin', sessionID: SESSION })
    dispose()
  })
})
