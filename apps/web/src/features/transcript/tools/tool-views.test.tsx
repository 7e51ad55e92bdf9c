import { partBytes } from '@loupe/domain'
import { fireEvent, render } from '@solidjs/testing-library'
import { describe, expect, it } from 'vitest'
import { formatBytes } from '../../../lib/format'
import { toMessageModel } from '../to-message-model'
import { MessageView } from '../message-view'
import { atFileParts, bashPart, editPart, emptyGlobPart, globPart, grepPart, readPart, todoPart, toolMessage, writePart } from './tools.test-data'

/** Renders the part in a message, opens its tool call and returns the call's element. */
function openTool(part: Record<string, unknown>, hit?: string) {
  const target = hit ? { highlightPart: part.id as string, highlightQuery: hit } : {}
  const { container } = render(() => <MessageView message={toMessageModel(toolMessage([part]))} now={1_796_164_940_000} {...target} />)
  if (hit) return container.querySelector('.tool-call') as HTMLElement
  const call = container.querySelector('.tool-call') as HTMLElement
  fireEvent.click(call.querySelector('.collapsible-summary') as HTMLElement)
  return call
}

const texts = (root: Element, selector: string) => [...root.querySelectorAll(selector)].map((el) => el.textContent)

describe('tool views', () => {
  it('shows an edit as a diff with both line numbers, and the result sentence', () => {
    const call = openTool(editPart)
    expect(call.querySelector('.tool-file-path')?.textContent).toBe('/repo/tally-1/src/slug-2.js')
    expect(call.querySelector('.diff-stat')?.textContent).toBe('+5 −1')
    expect(texts(call, '.code-line.del .code')).toEqual(['  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-")'])
    expect(texts(call, '.code-line.add .code')[1]).toBe('    .toLowerCase()')
    const last = call.querySelectorAll('.code-line')[9] as HTMLElement
    expect(texts(last, '.ln')).toEqual(['4', '8'])
    expect(call.querySelector('.tool-result')?.textContent).toBe('Edit applied successfully.')
  })

  it('shows a write as the file it wrote, with line numbers', () => {
    const call = openTool(writePart)
    expect(texts(call, '.code-line .ln')).toEqual(['1', '2', '3', '4', '5'])
    expect(texts(call, '.code-line .code')[2]).toBe('- lower-cases')
    expect(call.querySelector('.tool-file-head')?.textContent).toContain('5 lines')
  })

  it('shows a todo list as a checklist with each state in words', () => {
    const call = openTool(todoPart)
    const items = [...call.querySelectorAll('.todo')] as HTMLElement[]
    expect(items.map((li) => li.dataset.status)).toEqual(['completed', 'in_progress', 'pending', 'cancelled'])
    expect(texts(call, '.todo-state')).toEqual(['done', 'in progress', 'to do', 'cancelled'])
    expect(texts(call, '.todo-mark')).toEqual(['✓', '◐', '○', '✕'])
    expect(texts(call, '.todo-priority')[0]).toBe('high')
    expect(call.querySelector('.todo-view')?.textContent).toContain('1 of 4 done')
  })

  it('shows a shell call as a terminal: command, then output, then the exit code', () => {
    const call = openTool(bashPart)
    const terminal = call.querySelector('.terminal') as HTMLElement
    expect(terminal.querySelector('.terminal-command')?.textContent).toBe('$ node src/cli.js')
    expect(terminal.querySelector('.terminal-output pre')?.textContent).toBe('usage: tally FILE [--top N]\n')
    expect(terminal.querySelector('.terminal-exit.failed')?.textContent).toBe('exit 2')
    expect(terminal.querySelector('.terminal-caption')?.textContent).toBe('Run the CLI without arguments')
  })

  it('keeps a long terminal output bounded behind "Show all"', () => {
    const output = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n')
    const call = openTool({ ...bashPart, state: { ...bashPart.state, output, metadata: { output, exit: 0 } } })
    expect(call.querySelector('.terminal-output pre')?.textContent?.length).toBe(6000)
    fireEvent.click(call.querySelector('.terminal-output .show-all') as HTMLElement)
    expect(call.querySelector('.terminal-output pre')?.textContent).toBe(output)
  })

  it('shows a read with the file line numbers, and its end-of-file note', () => {
    const call = openTool(readPart)
    expect(texts(call, '.code-line .ln')).toEqual(['1', '2', '3', '4', '5'])
    expect(texts(call, '.code-line .code')[4]).toBe('    node src/cli.js FILE [--top N]')
    expect(call.querySelector('.file-note')?.textContent).toBe('(End of file - total 5 lines)')
    expect(call.textContent).not.toContain('<content>')
  })

  it('lists grep hits under their files and glob results as paths', () => {
    const grep = openTool(grepPart)
    expect(texts(grep, '.path-list > li > .path')).toEqual(['/repo/tally-1/src/format.js', '/repo/tally-1/src/count.js'])
    expect(texts(grep, '.path-list .ln')).toEqual(['2', '2', '6', '10'])
    expect(grep.querySelector('.tool-file-head')?.textContent).toBe('Found 4 matches')
    expect(texts(openTool(globPart), '.path-list .path')).toHaveLength(3)
    const none = openTool(emptyGlobPart)
    expect(none.querySelector('.tool-file-head')?.textContent).toBe('No files found')
    expect(none.querySelectorAll('.path-list li')).toHaveLength(0)
  })

  it('keeps the stored JSON one click away', () => {
    const call = openTool(editPart)
    expect(call.textContent).not.toContain('"callID"')
    fireEvent.click([...call.querySelectorAll('button')].find((b) => b.textContent === 'Raw JSON') as HTMLElement)
    expect(call.querySelector('.tool-raw pre')?.textContent).toContain('"callID": "call_e"')
    expect(call.querySelector('.tool-raw pre')?.textContent).toContain('"oldString"')
  })

  it('sizes a tool call as the whole stored part, the figure the prune review shows', () => {
    const { container } = render(() => <MessageView message={toMessageModel(toolMessage([writePart]))} />)
    expect(container.querySelector('.tool-size')?.textContent).toBe(formatBytes(partBytes(writePart)))
    expect(partBytes(writePart)).toBeGreaterThan(300)
    expect(container.querySelector('.badge')?.textContent).toBe('done')
  })

  it("shows an @-attached file's context as the file, line by line, and other context with its line breaks", () => {
    const { container } = render(() => <MessageView message={toMessageModel(toolMessage(atFileParts, 'user'))} />)
    for (const summary of container.querySelectorAll('.collapsible-summary')) fireEvent.click(summary)
    expect(texts(container, '.code-line .code')).toEqual(['#!/usr/bin/env node', 'import fs from "node:fs"', '', 'const [file] = process.argv.slice(2)'])
    expect(container.querySelector('.tool-file-path')?.textContent).toBe('/repo/tally-1/src/cli.js')
    const plain = container.querySelector('.code-block.synthetic pre')
    expect(plain?.textContent).toContain('Called the Read tool with the following input:')
  })

  it('opens a long file whole when the search that led here matches past the first 400 lines', () => {
    const content = Array.from({ length: 900 }, (_, i) => (i === 850 ? 'const needle = 1' : `line ${i}`)).join('\n')
    const big = { ...writePart, state: { ...writePart.state, input: { ...writePart.state.input, content } } }
    expect(openTool(big).querySelectorAll('.code-line')).toHaveLength(400)
    expect(openTool(big, 'needle').querySelectorAll('.code-line')).toHaveLength(900)
  })

  it('opens the raw JSON when the search matched only what the view leaves out', () => {
    expect(openTool(bashPart, 'usage').querySelector('.tool-raw pre')).toBeNull()
    expect(openTool(bashPart, 'call_b').querySelector('.tool-raw pre')?.textContent).toContain('"callID": "call_b"')
  })
})
