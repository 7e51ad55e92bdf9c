import { describe, expect, it } from 'vitest'
import { toolFromV1, toolFromV2 } from '../tool-model'
import { diffRows } from './diff-view'
import { parseGrepOutput, parsePathList, parseReadOutput, toolShape } from './tool-shapes'
import { bashPart, editPart, emptyGlobPart, globPart, grepPart, readPart, todoPart, writePart } from './tools.test-data'

describe('toolShape', () => {
  it('reads each built-in tool as the view that suits it', () => {
    expect(toolShape(toolFromV1(editPart)).kind).toBe('diff')
    expect(toolShape(toolFromV1(writePart))).toMatchObject({ kind: 'file', file: '/repo/tally-1/notes/session-2.md', lines: [{ n: 1, text: '# slugify (src/slug-2.js)' }, { n: 2, text: '' }, { n: 3, text: '- lower-cases' }, { n: 4 }, { n: 5 }] })
    expect(toolShape(toolFromV1(todoPart))).toMatchObject({ kind: 'todos', todos: [{ status: 'completed', priority: 'high' }, { status: 'in_progress' }, { status: 'pending' }, { status: 'cancelled' }] })
    expect(toolShape(toolFromV1(bashPart))).toEqual({ kind: 'terminal', command: 'node src/cli.js', description: 'Run the CLI without arguments', output: 'usage: tally FILE [--top N]\n', exit: 2 })
    expect(toolShape(toolFromV1(readPart))).toMatchObject({ kind: 'file', file: '/repo/tally-1/README.md', note: '(End of file - total 5 lines)' })
    expect(toolShape(toolFromV1(grepPart)).kind).toBe('paths')
    expect(toolShape(toolFromV1(globPart)).kind).toBe('paths')
  })

  it('falls back to input and output for an unknown tool, a failed call or a shape that moved', () => {
    expect(toolShape(toolFromV1({ type: 'tool', tool: 'webfetch', state: { status: 'completed', input: { url: 'https://x' }, output: 'hi' } })).kind).toBe('raw')
    expect(toolShape(toolFromV1({ type: 'tool', tool: 'edit', state: { status: 'error', input: { filePath: '/a' }, error: 'no match' } })).kind).toBe('raw')
    expect(toolShape(toolFromV1({ type: 'tool', tool: 'read', state: { status: 'completed', input: { filePath: '/a.png' }, output: 'Image read successfully' } })).kind).toBe('raw')
  })

  it('reads 2.x tool items: `path` for `filePath`, text content as output, `shell` as a terminal', () => {
    const write = toolFromV2({ type: 'tool', name: 'write', state: { status: 'completed', input: { path: '/r/a.txt', content: 'one\ntwo' }, content: [{ type: 'text', text: 'Wrote file successfully.' }] } })
    expect(toolShape(write)).toMatchObject({ kind: 'file', file: '/r/a.txt', lines: [{ n: 1, text: 'one' }, { n: 2, text: 'two' }] })
    const shell = toolFromV2({ type: 'tool', name: 'shell', state: { status: 'completed', input: { command: 'ls' }, content: [{ type: 'text', text: 'a\nb' }], metadata: { exit: 0 } } })
    expect(toolShape(shell)).toMatchObject({ kind: 'terminal', command: 'ls', output: 'a\nb', exit: 0 })
    const edit = toolFromV2({ type: 'tool', name: 'edit', state: { status: 'completed', input: { path: '/r/p.tsx', oldString: 'aspectRatio: undefined', newString: "aspectRatio: '4 / 3'" }, content: [{ type: 'text', text: 'Edit applied successfully.' }], structured: { additions: 1, deletions: 1 } } })
    const shape = toolShape(edit)
    expect(shape).toMatchObject({ kind: 'diff', file: '/r/p.tsx', before: 'aspectRatio: undefined' })
    expect(shape.kind === 'diff' && diffRows(shape).filter((r) => r.sign === '+' || r.sign === '-').map((r) => r.sign + r.text)).toEqual(['-aspectRatio: undefined', "+aspectRatio: '4 / 3'"])
  })
})

describe('parsers', () => {
  it('numbers read lines and keeps the closing note apart', () => {
    const read = parseReadOutput(readPart.state.output)
    expect(read?.lines.map((l) => l.n)).toEqual([1, 2, 3, 4, 5])
    expect(read?.lines[4]?.text).toBe('    node src/cli.js FILE [--top N]')
    expect(parseReadOutput('00012| const a = 1\n')).toBeUndefined()
    expect(parseReadOutput('<file>\n<content>\n00012| const a = 1\n</content>')?.lines).toEqual([{ n: 12, text: 'const a = 1' }])
  })

  it('groups grep hits under their file and lists glob paths, or says nothing was found', () => {
    const grep = parseGrepOutput(grepPart.state.output)
    expect(grep.header).toBe('Found 4 matches')
    expect(grep.groups.map((g) => [g.path, g.lines.map((l) => l.n)])).toEqual([['/repo/tally-1/src/format.js', [2]], ['/repo/tally-1/src/count.js', [2, 6, 10]]])
    expect(parsePathList(globPart.state.output).groups).toHaveLength(3)
    expect(parsePathList(emptyGlobPart.state.output)).toEqual({ header: 'No files found', groups: [] })
  })

  it('turns a unified diff or a before/after pair into numbered rows, and an unreadable patch into marked lines', () => {
    const rows = diffRows({ patch: editPart.state.metadata.diff })
    expect(rows[0]).toMatchObject({ gap: true, text: '@@ -1,4 +1,8 @@' })
    expect(rows.filter((r) => r.sign === '+')).toHaveLength(5)
    expect(rows.find((r) => r.sign === '-')).toMatchObject({ old: 3, text: '  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-")' })
    expect(rows.at(-1)).toMatchObject({ sign: ' ', old: 4, n: 8, text: '}' })
    const pair = diffRows({ before: 'a\nb\nc\n', after: 'a\nB\nc\n', file: 'x' })
    expect(pair.filter((r) => r.sign).map((r) => `${r.sign}${r.text}`)).toEqual([' a', '-b', '+B', ' c'])
    const envelope = diffRows({ patch: '*** Begin Patch\n*** Update File: a\n-x\n+y\n*** End Patch' })
    expect(envelope.map((r) => r.sign)).toEqual([' ', ' ', '-', '+', ' '])
  })
})
