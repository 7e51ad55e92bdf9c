import { describe, expect, it } from 'vitest'
import { describeFinishReason, formatBytes, formatCost, formatCount, formatDuration, formatRelativeTime, quoteTyped, technicalParts, utf8Length } from './format'

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [1023, '1023 B'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [12 * 1024 + 300, '12 KB'],
    [3.25 * 1024 * 1024, '3.3 MB'],
    [70 * 1024 ** 3, '70 GB'],
    [-1, '—'],
    [Number.NaN, '—'],
  ])('formats %d bytes as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text)
  })
})

describe('formatCount', () => {
  it.each([
    [950, '950'],
    [1200, '1.2k'],
    [34_000, '34k'],
    [2_500_000, '2.5M'],
  ])('formats %d as %s', (n, text) => expect(formatCount(n)).toBe(text))
})

describe('formatCost', () => {
  it.each([
    [0, '$0'],
    [0.0015113, '$0.0015'],
    [0.021, '$0.021'],
    [12.345, '$12.35'],
  ])('formats %d dollars as %s', (n, text) => expect(formatCost(n)).toBe(text))
})

describe('formatRelativeTime', () => {
  const now = Date.UTC(2026, 10, 29, 12, 0, 0)
  it.each([
    [now - 10_000, 'just now'],
    [now + 60_000, 'just now'],
    [now - 5 * 60_000, '5 min ago'],
    [now - 3 * 3_600_000, '3 h ago'],
    [now - 30 * 3_600_000, 'yesterday'],
    [now - 4 * 86_400_000, '4 d ago'],
  ])('says %s relative to now', (at, text) => expect(formatRelativeTime(at, now)).toBe(text))

  it('gives a date for anything older than a week', () => {
    expect(formatRelativeTime(now - 40 * 86_400_000, now)).toMatch(/Oct|10/)
  })
})

describe('formatDuration', () => {
  it.each([
    [850, '850 ms'],
    [4200, '4.2 s'],
    [185_000, '3 min 5 s'],
  ])('formats %d ms as %s', (ms, text) => expect(formatDuration(ms)).toBe(text))
})

describe('utf8Length', () => {
  it.each(['', 'ascii', 'naïve', '日本語', '🙂 emoji', 'mixed ✓ text 🎉'])('matches TextEncoder for %j', (text) => {
    expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length)
  })
})

describe('quoteTyped', () => {
  it('quotes typed text once, collapsed and cut', () => {
    expect(quoteTyped('login bug')).toBe('“login bug”')
    expect(quoteTyped('"validates cursor"')).toBe('"validates cursor"')
    expect(quoteTyped('fix "login bug"')).toBe('“fix "login bug"”')
    expect(quoteTyped(' a\n\n b ')).toBe('“a b”')
    const long = quoteTyped('{"level":30,'.repeat(900))
    expect([...long]).toHaveLength(80 + 2)
    expect(long.endsWith('…”')).toBe(true)
    expect(quoteTyped('é'.repeat(100), 10)).toBe(`“${'é'.repeat(9)}…”`)
    expect(quoteTyped(`"${'lorem ipsum '.repeat(20)}"`, 20)).toBe('"lorem ipsum lorem…"')
    expect(quoteTyped('"unclosed phrase')).toBe('"unclosed phrase"')
  })
})

describe('technicalParts', () => {
  it('names only the kinds there are', () => {
    expect(technicalParts(2, 1)).toBe('2 tool calls and 1 reasoning block')
    expect(technicalParts(1, 0)).toBe('1 tool call')
    expect(technicalParts(0, 3)).toBe('3 reasoning blocks')
    expect(technicalParts(0, 0)).toBe('no tool calls or reasoning')
  })
})

describe('describeFinishReason', () => {
  it.each([
    ['tool-calls', 'called tools'],
    ['stop', 'finished'],
    ['length', 'hit the output limit'],
    ['something-new', 'something-new'],
  ])('says %s as %s', (reason, words) => {
    expect(describeFinishReason(reason)).toBe(words)
  })
})
