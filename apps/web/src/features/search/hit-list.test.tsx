import { Router } from '@solidjs/router'
import { render } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { HitList } from './hit-list'
import { groupBySession, groupedOrder, hitHref } from './hit-model'
import type { SearchHit } from './search.data'
import { plainProse, tidySegments } from './snippet'

const hit = (over: Partial<SearchHit>): SearchHit => ({
  sessionID: 'ses_a', storage: 'v1', sessionTitle: 'Alpha', sessionDirectory: '/home/dev/code/alpha', messageID: 'msg_1', kind: 'text',
  snippet: [{ text: 'the ', match: false }, { text: 'login', match: true }, { text: ' bug', match: false }], score: 1, time: 0, ...over,
})

const hits = [
  hit({ partID: 'prt_1' }),
  hit({ sessionID: 'ses_b', sessionTitle: 'Beta', storage: 'v2', messageID: 'msg_9', index: 2, kind: 'tool', tool: 'bash', snippet: [{ text: '<img src=x onerror=alert(1)> ', match: false }, { text: 'login', match: true }] }),
  hit({ messageID: null, kind: 'title', snippet: [{ text: 'Alpha', match: true }] }),
]

describe('hit model', () => {
  it('links a hit to its session, message and part (1.x id or 2.x index)', () => {
    expect(hitHref(hits[0]!)).toBe('/sessions/ses_a?storage=v1&m=msg_1&part=prt_1')
    expect(hitHref(hits[1]!)).toBe('/sessions/ses_b?storage=v2&m=msg_9&part=2')
    expect(hitHref(hits[2]!)).toBe('/sessions/ses_a?storage=v1')
  })

  it('carries the query to mark its matches in the opened part, or in the title for a title hit', () => {
    expect(hitHref(hits[0]!, 'login "the bug"')).toBe('/sessions/ses_a?storage=v1&m=msg_1&part=prt_1&hl=login+%22the+bug%22')
    expect(hitHref(hits[2]!, 'alpha')).toBe('/sessions/ses_a?storage=v1&hl=alpha')
    // A hit with neither a part nor a title to mark opens plainly.
    expect(hitHref(hit({ messageID: 'msg_2', kind: 'user' }), 'login')).toBe('/sessions/ses_a?storage=v1&m=msg_2')
  })

  it('groups by session in order of the best hit, and keys follow that order', () => {
    expect(groupBySession(hits).map((g) => [g.title, g.hits.map((h) => h.index)])).toEqual([['Alpha', [0, 2]], ['Beta', [1]]])
    expect(groupedOrder(hits)).toEqual([0, 2, 1])
  })

  it('groups hits of a later "load more" below the earlier groups, a session seen above as continued', () => {
    const more = [...hits, hit({ partID: 'prt_7' }), hit({ sessionID: 'ses_c', sessionTitle: 'Gamma' }), hit({ sessionID: 'ses_b', sessionTitle: 'Beta', storage: 'v2' })]
    expect(groupBySession(more, [3]).map((g) => [g.title, g.continued, g.hits.map((h) => h.index)])).toEqual([
      ['Alpha', false, [0, 2]], ['Beta', false, [1]], ['Alpha', true, [3]], ['Gamma', false, [4]], ['Beta', true, [5]],
    ])
    expect(groupedOrder(more, [3])).toEqual([0, 2, 1, 3, 4, 5])
    expect(groupedOrder(more)).toEqual([0, 2, 3, 1, 5, 4])
  })

  it('reads a prose snippet without the Markdown marks the transcript renders away', () => {
    const seg = (text: string, match = false) => ({ text, match })
    expect(plainProse([seg('## Plan\n**Keyset** uses `'), seg('cursor', true), seg('` rows.\n> note: __init__ and a * b')]))
      .toEqual([seg('Plan\nKeyset uses '), seg('cursor', true), seg(' rows.\nnote: __init__ and a * b')])
    // A phrase matches across the marks: its piece loses them too.
    expect(plainProse([seg('map '), seg('onto the **last source', true), seg(' column'), seg('look at `src/resize.rs', true)]))
      .toEqual([seg('map '), seg('onto the last source', true), seg(' column'), seg('look at src/resize.rs', true)])
    // A heading mark is only one at the start of a line, never in the middle of a segment's text.
    expect(plainProse([seg('see '), seg('issue', true), seg(' # 12 and > 3')])).toEqual([seg('see '), seg('issue', true), seg(' # 12 and > 3')])
  })

  it('drops blank lines and outer whitespace from snippets', () => {
    expect(tidySegments([{ text: '\n\n  a\n\n\n', match: false }, { text: 'b', match: true }, { text: ' c \n', match: false }]))
      .toEqual([{ text: 'a\n', match: false }, { text: 'b', match: true }, { text: ' c', match: false }])
  })
})

describe('HitList', () => {
  it('marks matches and renders stored markup as text', () => {
    const { container } = render(() => <Router root={() => <HitList hits={hits} view="flat" selected={1} now={0} onSelect={() => {}} />} />)
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['login', 'login', 'Alpha'])
    expect(container.querySelector('img')).toBeNull()
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>')
    expect(container.querySelector('.hit.selected')?.getAttribute('data-index')).toBe('1')
    expect(container.querySelector('.hit.selected .hit-tool')?.textContent).toBe('bash')
  })

  it('shows a header per session in grouped view', () => {
    const { container } = render(() => <Router root={() => <HitList hits={hits} view="sessions" selected={0} now={0} onSelect={() => {}} />} />)
    expect([...container.querySelectorAll('.hit-group-title')].map((a) => a.textContent)).toEqual(['Alpha', 'Beta'])
    // Sessions of one title are told apart by where they ran.
    expect(container.querySelector('.hit-group-dir')?.textContent).toBe('code/alpha')
    expect(container.querySelectorAll('.hit-session').length).toBe(0)
    expect(container.querySelector('.hit-group-head .muted')?.textContent).toBe('2 matches')
  })

  it('says a group\'s count is of the results loaded so far while more can load', () => {
    const { container } = render(() => <Router root={() => <HitList hits={hits} view="sessions" selected={0} now={0} onSelect={() => {}} partial />} />)
    expect([...container.querySelectorAll('.hit-group-head .muted')].map((s) => s.textContent)).toEqual(['2 matches so far', '1 match so far'])
  })

  it('names a continued group\'s count as more matches', () => {
    const more = [...hits, hit({ partID: 'prt_7' })]
    const { container } = render(() => <Router root={() => <HitList hits={more} view="sessions" selected={0} now={0} onSelect={() => {}} moreFrom={[3]} />} />)
    expect([...container.querySelectorAll('.hit-group-continued .muted')].map((s) => s.textContent)).toEqual(['1 more match'])
  })
})
