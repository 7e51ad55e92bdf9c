import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { codeTokens, codeTokensIn, documentCodeTokens, isDefaultTitle, messageSearchDocs, partSearchFields } from './search-doc.js'

describe('partSearchFields', () => {
  it('reads a completed 1.x tool: name, title, input values, output', () => {
    const f = partSearchFields({
      type: 'tool', tool: 'bash', callID: 'call_1',
      state: { status: 'completed', input: { command: 'echo hi', description: 'Print hi' }, output: 'hi\n', title: 'echo hi', metadata: { output: 'hi\n' } },
    }, 'assistant')
    expect(f).toMatchObject({ kind: 'tool', tool: 'bash', title: 'echo hi', input: 'echo hi\nPrint hi', output: 'hi\n' })
  })

  it('labels user text as user and leaves media out', () => {
    expect(partSearchFields({ type: 'text', text: 'please fix' }, 'user')).toMatchObject({ kind: 'user', body: 'please fix' })
    expect(partSearchFields({ type: 'file', url: 'data:image/png;base64,AAAA' }, 'user')).toBeNull()
    const write = partSearchFields({ type: 'tool', tool: 'write', state: { status: 'completed', input: { content: 'data:image/png;base64,' + 'A'.repeat(500) } } }, 'assistant')
    expect(write?.input).toBe('')
  })

  it('strips snippet markers from content', () => {
    expect(partSearchFields({ type: 'text', text: 'a\uE000b\uE001c' }, 'assistant')?.body).toBe('a b c')
  })
})

describe('messageSearchDocs', () => {
  it('gives one document per 2.x assistant content item, keyed by index', () => {
    const docs = messageSearchDocs('assistant', {
      content: [
        { type: 'reasoning', text: 'thinking' },
        { type: 'text', text: 'answer' },
        { type: 'tool', id: 'call_1', name: 'bash', state: { status: 'completed', input: { command: 'ls' }, content: [{ type: 'text', text: 'a.txt' }, { type: 'file', uri: 'data:x' }] } },
      ],
    })
    expect(docs.map((d) => [d.key, d.kind, d.tool])).toEqual([['0', 'reasoning', null], ['1', 'text', null], ['2', 'tool', 'bash']])
    expect(docs[2]).toMatchObject({ input: 'ls', output: 'a.txt' })
  })

  it('reads user, compaction and shell rows as one document', () => {
    expect(messageSearchDocs('user', { text: 'hello' })).toEqual([expect.objectContaining({ key: 'u', kind: 'user', body: 'hello' })])
    expect(messageSearchDocs('compaction', { summary: 'we did X', recent: '[User]: hello' })[0]).toMatchObject({ kind: 'text', body: 'we did X' })
    expect(messageSearchDocs('shell', { command: 'ls', output: 'x' })[0]).toMatchObject({ kind: 'tool', tool: 'shell' })
    expect(messageSearchDocs('system', { text: 'The available tools have changed.' })).toEqual([])
  })
})

describe('documentCodeTokens', () => {
  it('reads the title, body, input and output, and not the tool name', () => {
    const fields = { kind: 'tool' as const, tool: 'fetchV2Api', title: 'PR1137', body: 'see getUserName', input: '', output: 'v2Cursor ok' }
    expect([...documentCodeTokens(fields)].sort()).toEqual(['getusername', 'pr1137', 'v2cursor'])
  })
})

describe('codeTokens', () => {
  it('keeps mixed and camelCase tokens, not words or hashes', () => {
    expect([...codeTokens('PR1137 getUserName plain words 2289ce0da001abcdef utf8 sha256sum d2d24b94 jBhJvbA3')]).toEqual(['pr1137', 'getusername', 'utf8', 'sha256sum'])
  })

  it('keeps runs of scripts written without spaces, whose pieces are otherwise unsearchable', () => {
    expect([...codeTokens('日本語のテキストです。 한국어문장 ok')]).toEqual(['日本語のテキストです', '한국어문장'])
    expect([...codeTokens('Café1 ΑΒΓ123')]).toEqual(['café1', 'αβγ123'])
  })

  it('finds exactly what the character loop over the whole text finds (the regex only skips ahead)', () => {
    // Letters, digits, case changes, accents, CJK, Hangul, surrogate halves, punctuation and space.
    const unit = fc.constantFrom(...'aZq09_-. \n/éÉßΑβ日本テ한국\u00a0\u2014\ud83d\ude00\u3000'.split(''))
    const texts = fc.oneof(fc.string({ unit, maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 }))
    fc.assert(fc.property(texts, (text) => {
      expect([...codeTokens(text)]).toEqual([...codeTokensIn(text, 0, text.length, new Set())])
    }), { numRuns: 3000 })
  })

  it('recognizes placeholder titles', () => {
    expect(isDefaultTitle('New session - 2026-11-29T12:00:00.000Z')).toBe(true)
    expect(isDefaultTitle('Fix login bug')).toBe(false)
  })
})
