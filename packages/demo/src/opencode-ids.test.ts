import { describe, expect, it } from 'vitest'
import { createIdSource, decodeIdTime } from './opencode-ids.js'
import { createRandom } from './random.js'

describe('createIdSource', () => {
  it('reproduces the time bits of ids OpenCode 1.18.33 wrote', () => {
    // From opencode-1.18.33-sample-rows.sql: msg_2289ce0da001… at 1795977699546 and ses_dd7631fb3ffe… at 1795977699404.
    const ids = createIdSource(createRandom(1))
    expect(ids.descending('ses', 1795977699404).slice(0, 16)).toBe('ses_dd7631fb3ffe')
    expect(ids.ascending('msg', 1795977699546).slice(0, 16)).toBe('msg_2289ce0da001')
  })

  it('counts up within a millisecond across prefixes and restarts at 1 in the next', () => {
    const ids = createIdSource(createRandom(2))
    const a = ids.ascending('prt', 1795977701795)
    const b = ids.ascending('evt', 1795977701795)
    const c = ids.ascending('prt', 1795977701796)
    expect([a.slice(13, 16), b.slice(13, 16), c.slice(13, 16)]).toEqual(['001', '002', '001'])
    expect(a < c).toBe(true)
  })

  it('makes newer sessions sort first and newer messages sort last', () => {
    const ids = createIdSource(createRandom(3))
    const [s1, m1] = [ids.descending('ses', 1_000_000), ids.ascending('msg', 1_000_000)]
    const [s2, m2] = [ids.descending('ses', 2_000_000), ids.ascending('msg', 2_000_000)]
    expect(s2 < s1).toBe(true)
    expect(m1 < m2).toBe(true)
  })
})

describe('decodeIdTime', () => {
  it('recovers the millisecond of ascending and descending ids', () => {
    const ids = createIdSource(createRandom(4))
    const t = Date.UTC(2026, 5, 1, 12)
    expect(decodeIdTime(ids.descending('ses', t - 86_400_000), t)).toBe(t - 86_400_000)
    expect(decodeIdTime(ids.ascending('evt', t), t)).toBe(t)
  })
})
