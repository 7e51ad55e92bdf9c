import { describe, expect, it } from 'vitest'
import { liveStatusRequest, parseLiveStatus } from './live-status.js'
import type { SessionRecord } from './store.js'

const v1 = { storage: 'v1', id: 'ses_a', directory: '/work/p' } as SessionRecord
const v2 = { storage: 'v2', id: 'ses_a', directory: '/work/p' } as SessionRecord

describe('liveStatusRequest', () => {
  it('asks 1.x per directory and 2.x once per server', () => {
    expect(liveStatusRequest(v1)).toEqual({ key: 'v1:/work/p', path: '/session/status', directory: '/work/p' })
    expect(liveStatusRequest(v2)).toEqual({ key: 'v2', path: '/api/session/active' })
  })
})

describe('parseLiveStatus', () => {
  it.each([
    [v1, {}, 'idle'],
    [v1, { ses_b: { type: 'busy' } }, 'idle'],
    [v1, { ses_a: { type: 'busy' } }, 'busy'],
    [v1, { ses_a: { type: 'retry', attempt: 2 } }, 'busy'],
    [v1, { ses_a: { type: 'idle' } }, 'idle'],
    [v1, { ses_b: 'busy' }, null],
    [v1, [], null],
    [v1, null, null],
    [v1, 'ok', null],
    [v2, { data: {} }, 'idle'],
    [v2, { data: { ses_a: { time: 1 } } }, 'busy'],
    [v2, {}, null],
    [v2, { data: [] }, null],
  ])('reads %o answering %j as %s', (session, body, state) => {
    expect(parseLiveStatus(session, body)).toBe(state)
  })
})
