import { arr, isObject, num, obj, str } from '../json'
import type { ToolView } from '../message-model'

/** What a tool call is shown as; `raw` is the fallback (input and output as they are). */
export type ToolShape =
  | { kind: 'diff'; file: string; patch?: string; before?: string; after?: string }
  | { kind: 'file'; file: string; lines: NumberedLine[]; note?: string }
  | { kind: 'terminal'; command: string; description?: string; workdir?: string; output: string; exit?: number }
  | { kind: 'todos'; todos: Todo[] }
  | { kind: 'paths'; header?: string; groups: PathGroup[] }
  | { kind: 'raw' }

export interface NumberedLine {
  n: number
  text: string
}

export interface Todo {
  content: string
  status: string
  priority?: string
}

export interface PathGroup {
  path: string
  lines: NumberedLine[]
}

const EDIT_TOOLS = new Set(['edit', 'multiedit', 'str_replace', 'str_replace_editor'])
const PATCH_TOOLS = new Set(['patch', 'apply_patch'])
const SHELL_TOOLS = new Set(['bash', 'shell'])
const TODO_TOOLS = new Set(['todowrite', 'todoread'])

const linesOf = (text: string) => (text === '' ? [] : text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n'))

/**
 * The `read` tool's output (and an @-attached file's synthetic context): `<path>…</path>`, then
 * `<content>` holding `N: text` lines (`00001| text` in older versions) and a closing note.
 * Anything that is not of that shape reads as undefined, and is shown as plain text.
 */
export function parseReadOutput(text: string): { file: string; lines: NumberedLine[]; note?: string } | undefined {
  const body = /<content>\n?([\s\S]*?)\n?<\/content>/.exec(text)?.[1]
  if (body === undefined) return undefined
  const file = /<path>([^<]*)<\/path>/.exec(text)?.[1]?.trim() ?? /<file>([^<]*)<\/file>/.exec(text)?.[1]?.trim() ?? ''
  const lines: NumberedLine[] = []
  const notes: string[] = []
  for (const line of linesOf(body)) {
    const m = /^\s*(\d+)(?:: |\| |:|\|)(.*)$/.exec(line)
    if (m) lines.push({ n: Number(m[1]), text: m[2] ?? '' })
    else if (line.trim()) notes.push(line.trim())
  }
  if (lines.length === 0 && notes.length === 0) return undefined
  return { file, lines, ...(notes.length ? { note: notes.join(' ') } : {}) }
}

/** `grep` output: `Found N matches`, then `/abs/file:` headers each followed by `  Line 3: …`. */
export function parseGrepOutput(text: string): { header?: string; groups: PathGroup[] } {
  const groups: PathGroup[] = []
  const notes: string[] = []
  for (const line of linesOf(text)) {
    const hit = /^\s+Line (\d+): ?(.*)$/.exec(line)
    const last = groups[groups.length - 1]
    if (hit && last) last.lines.push({ n: Number(hit[1]), text: hit[2] ?? '' })
    else if (/^\S.*:$/.test(line)) groups.push({ path: line.slice(0, -1), lines: [] })
    else if (line.trim()) notes.push(line.trim())
  }
  return { ...(notes.length ? { header: notes.join(' ') } : {}), groups }
}

const NOT_A_PATH = /^(No files found|\(.*\))$/i

/** `glob` (and `list`) output: one path per line, or a sentence when nothing matched. */
export function parsePathList(text: string): { header?: string; groups: PathGroup[] } {
  const all = linesOf(text).map((l) => l.trim()).filter(Boolean)
  const notes = all.filter((l) => NOT_A_PATH.test(l))
  const groups = all.filter((l) => !NOT_A_PATH.test(l)).map((path) => ({ path, lines: [] }))
  return { ...(notes.length ? { header: notes.join(' ') } : {}), groups }
}

function todosFrom(input: unknown, output: string | null): Todo[] {
  let list = arr(obj(input).todos)
  if (list.length === 0 && output) {
    try {
      const parsed: unknown = JSON.parse(output)
      list = Array.isArray(parsed) ? parsed : []
    } catch {
      list = []
    }
  }
  return list.filter(isObject).flatMap((t) => {
    const content = str(t.content)
    if (content === undefined) return []
    const priority = str(t.priority)
    return [{ content, status: str(t.status) ?? 'pending', ...(priority ? { priority } : {}) }]
  })
}

const patchOf = (metadata: Record<string, unknown>) => str(metadata.diff) ?? str(obj(metadata.filediff).patch)

/** How a tool call is best read, from its name and the shapes OpenCode stores (storage.md §6.2). */
export function toolShape(tool: ToolView): ToolShape {
  const input = obj(tool.input)
  const metadata = obj(tool.metadata)
  const file = str(input.filePath) ?? str(input.path) ?? str(input.file_path) ?? ''
  if (EDIT_TOOLS.has(tool.name)) {
    const patch = patchOf(metadata)
    const before = str(input.oldString) ?? str(input.old_string)
    const after = str(input.newString) ?? str(input.new_string)
    if (patch || (before !== undefined && after !== undefined)) return { kind: 'diff', file, ...(patch ? { patch } : { before, after }) }
  }
  if (PATCH_TOOLS.has(tool.name)) {
    const patch = patchOf(metadata) ?? str(input.patchText) ?? str(input.patch)
    if (patch) return { kind: 'diff', file, patch }
  }
  if (tool.name === 'write') {
    const content = str(input.content)
    if (content !== undefined) return { kind: 'file', file, lines: linesOf(content).map((text, i) => ({ n: i + 1, text })) }
  }
  if (tool.name === 'read' && tool.output) {
    const read = parseReadOutput(tool.output)
    if (read) return { kind: 'file', ...read, file: read.file || file }
  }
  if (SHELL_TOOLS.has(tool.name)) {
    const command = str(input.command)
    if (command !== undefined) {
      const description = str(input.description)
      const workdir = str(input.workdir)
      const exit = num(metadata.exit)
      const output = tool.output ?? str(metadata.output) ?? ''
      return { kind: 'terminal', command, output, ...(description ? { description } : {}), ...(workdir ? { workdir } : {}), ...(exit !== undefined ? { exit } : {}) }
    }
  }
  if (TODO_TOOLS.has(tool.name)) {
    const todos = todosFrom(tool.input, tool.output)
    if (todos.length) return { kind: 'todos', todos }
  }
  if (tool.name === 'grep' && tool.output) return { kind: 'paths', ...parseGrepOutput(tool.output) }
  if ((tool.name === 'glob' || tool.name === 'list') && tool.output) return { kind: 'paths', ...parsePathList(tool.output) }
  return { kind: 'raw' }
}
