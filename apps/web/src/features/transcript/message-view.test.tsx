import { fireEvent, render, screen } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { v1Assistant, v1User, v2Assistant, v2User } from './fixtures.test-data'
import { toMessageModel } from './to-message-model'
import { MessageView } from './message-view'

const renderMessage = (message: Parameters<typeof toMessageModel>[0], extra: { highlightPart?: string; reverted?: boolean; pruned?: { parts: number; at: number } } = {}) =>
  render(() => <MessageView message={toMessageModel(message)} now={1_795_982_600_000} {...extra} />)

describe('MessageView', () => {
  it('renders 1.x user text as Markdown, with HTML shown as text, and the pasted image as a thumbnail', () => {
    const { container } = renderMessage(v1User)
    expect(container.querySelector('strong')?.textContent).toBe('the diagram')
    expect(container.querySelector('.markdown img')).toBeNull()
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>')
    const thumb = container.querySelector<HTMLImageElement>('.thumb img')
    expect(thumb?.getAttribute('src')).toMatch(/^data:image\/png;base64,/)
    expect(screen.getByText('screenshot-1.png')).toBeTruthy()
  })

  it('collapses tool calls to name, status, input summary and part size, and expands on click', () => {
    const { container } = renderMessage(v1Assistant)
    const tools = container.querySelectorAll('.tool-call')
    expect(tools).toHaveLength(2)
    const first = tools[0] as HTMLElement
    expect(first.querySelector('.tool-name')?.textContent).toBe('read')
    expect(first.querySelector('.badge')?.textContent).toBe('done')
    expect(first.querySelector('.tool-input')?.textContent).toBe('docs/architecture.png')
    expect(first.querySelector('.tool-size')?.textContent).toMatch(/B$/)
    expect(first.textContent).not.toContain('Image read successfully')
    // The attached image stays visible while the call is collapsed.
    expect(first.querySelectorAll('.thumb img')).toHaveLength(1)

    fireEvent.click(first.querySelector('.collapsible-summary') as HTMLElement)
    expect(first.textContent).toContain('Image read successfully')
    expect(first.textContent).toContain('"filePath": "/repo/docs/architecture.png"')
    expect((tools[1] as HTMLElement).querySelector('.badge')?.textContent).toBe('failed')
  })

  it('keeps reasoning collapsed and shows step tokens and cost', () => {
    const { container } = renderMessage(v1Assistant)
    const reasoning = container.querySelector('.reasoning') as HTMLElement
    expect(reasoning.querySelector('.collapsible-body')).toBeNull()
    expect(reasoning.querySelector('[aria-expanded="false"]')).not.toBeNull()
    expect(container.querySelector('.usage-line')?.textContent).toContain('2.6k tokens')
    expect(container.querySelector('.usage-line')?.textContent).toContain('$0.0015')
  })

  it('says where Loupe pruned parts of a message, and says nothing elsewhere', () => {
    const { container } = renderMessage(v1Assistant, { pruned: { parts: 3, at: 1_795_982_600_000 - 2 * 3_600_000 } })
    expect(container.querySelector('.pruned-note')?.textContent).toBe('3 tool calls or reasoning parts were removed here by Loupe 2 h ago.')
    expect(renderMessage(v1Assistant, { pruned: { parts: 1, at: 1_795_982_600_000 } }).container.querySelector('.pruned-note')?.textContent).toMatch(/^A tool call or reasoning part was removed here by Loupe/)
    expect(renderMessage(v1Assistant).container.querySelector('.pruned-note')).toBeNull()
  })

  it('shows an unknown part as a neutral chip instead of failing', () => {
    renderMessage(v1Assistant)
    expect(screen.getByText(/Unknown part · hologram/)).toBeTruthy()
  })

  it('renders a 2.x assistant: reasoning, tools with file results, text and an unknown item', () => {
    const { container } = renderMessage(v2Assistant)
    expect(container.querySelectorAll('.tool-call')).toHaveLength(2)
    expect(container.querySelectorAll('.thumb img')).toHaveLength(1)
    expect(screen.getByText('It matches.')).toBeTruthy()
    expect(screen.getByText(/Unknown part · citation/)).toBeTruthy()
    expect(container.querySelector('.message-head')?.textContent).toContain('scripted')
  })

  it('renders 2.x user files as thumbnails', () => {
    const { container } = renderMessage(v2User)
    expect(container.querySelectorAll('.thumb img')).toHaveLength(2)
  })

  it('opens and marks the part named by &part=, and marks a reverted message', () => {
    const { container } = renderMessage(v1Assistant, { highlightPart: 'prt_0003', reverted: true })
    const part = container.querySelector('[data-part="prt_0003"]') as HTMLElement
    expect(part.classList.contains('highlighted')).toBe(true)
    expect(part.textContent).toContain('Image read successfully')
    expect(container.querySelector('.message')?.classList.contains('reverted')).toBe(true)
    expect(screen.getByText('reverted')).toBeTruthy()
  })

  it('offers slots for per-message and per-part controls', () => {
    const { container } = render(() => (
      <MessageView message={toMessageModel(v1Assistant)} controls={() => <button type="button">select message</button>} itemControls={(_m, item) => <input type="checkbox" aria-label={`select ${item.ref}`} />} />
    ))
    expect(screen.getByText('select message')).toBeTruthy()
    expect(container.querySelectorAll('.item-controls input')).toHaveLength(5)
  })
})
