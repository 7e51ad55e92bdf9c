import { render, screen } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { BytesChart } from './bytes-chart'
import { BytesView } from './bytes-view'
import { buildBytesModel, formatShare } from './bytes-model'
import type { Breakdown } from './bytes.data'

const breakdown: Breakdown = {
  storage: 'v1',
  totalBytes: 10_000,
  entries: [
    { area: 'event', kind: 'message.part.updated.1', tool: null, count: 79, bytes: 5000, tokens: null },
    { area: 'part', kind: 'tool', tool: 'read', count: 3, bytes: 2000, tokens: 400 },
    { area: 'part', kind: 'tool', tool: 'bash', count: 2, bytes: 1000, tokens: 100 },
    { area: 'message', kind: 'info', tool: null, count: 16, bytes: 1000, tokens: null },
    { area: 'part', kind: 'reasoning', tool: null, count: 1, bytes: 600, tokens: 150 },
    { area: 'part', kind: 'text', tool: null, count: 4, bytes: 400, tokens: 90 },
  ],
  tokensSampled: false,
  usage: { cost: 0.021, tokens: { input: 18_111, output: 663, reasoning: 27, cacheRead: 18_106, cacheWrite: 0 } },
}

describe('buildBytesModel', () => {
  it('groups parts by kind and tool, and totals the event log', () => {
    const model = buildBytesModel(breakdown)
    expect(model.byKind.map((s) => [s.key, s.bytes, s.count, s.tokens])).toEqual([['tool', 3000, 5, 500], ['reasoning', 600, 1, 150], ['text', 400, 4, 90]])
    expect(model.byTool.map((s) => [s.key, s.bytes])).toEqual([['read', 2000], ['bash', 1000]])
    expect(model.eventBytes).toBe(5000)
    expect(model.overview.map((s) => s.key)).toEqual(['tool', 'reasoning', 'text', 'message-info', 'event-log'])
  })

  it.each([
    [5000, 10_000, '50%'],
    [50, 10_000, '0.5%'],
    [1, 100_000, '<0.1%'],
    [0, 0, '0%'],
  ])('formats %d of %d as %s', (part, total, text) => expect(formatShare(part, total)).toBe(text))
})

describe('BytesChart', () => {
  it('draws one SVG segment per slice, sized by bytes', () => {
    const model = buildBytesModel(breakdown)
    const { container } = render(() => <BytesChart slices={model.overview} total={model.total} label="Where the bytes go" />)
    const rects = [...container.querySelectorAll('svg rect')]
    expect(rects.map((r) => r.getAttribute('data-slice'))).toEqual(['tool', 'reasoning', 'text', 'message-info', 'event-log'])
    const width = (key: string) => Number(rects.find((r) => r.getAttribute('data-slice') === key)?.getAttribute('width'))
    expect(width('event-log')).toBeGreaterThan(width('tool'))
    expect(width('tool') / width('text')).toBeCloseTo(7.5, 0)
    expect(screen.getByRole('img', { name: 'Where the bytes go' })).toBeTruthy()
    expect(container.querySelector('.legend')?.textContent).toContain('Event log')
  })
})

describe('BytesView', () => {
  it('shows totals, usage and the three ranked lists', () => {
    render(() => <BytesView breakdown={breakdown} />)
    expect(screen.getByText('9.8 KB')).toBeTruthy()
    expect(screen.getByText('$0.021')).toBeTruthy()
    expect(screen.getByRole('region', { name: 'By tool' }).textContent).toContain('read')
    expect(screen.getByRole('region', { name: 'Event log by event type' }).textContent).toContain('message.part.updated.1')
  })
})
