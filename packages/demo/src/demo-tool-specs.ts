import type { JsonObject } from '@loupe/domain'
import type { ChildSessionSpec, ToolSpec } from './demo-spec.js'
import { diffTexts, summaryChange, toolPatch } from './demo-diff.js'
import type { Random } from './random.js'

/** A session's view of a project: files as they are now, so later reads see earlier edits. */
export interface Workspace {
  root: string
  files: Map<string, string>
  random: Random
}

const abs = (ws: Workspace, rel: string) => `${ws.root}/${rel}`
const lines = (text: string) => text.replace(/\n$/, '').split('\n')

/** `read` of a text file: numbered lines in OpenCode's envelope; preview and display copy the text. */
export function readFile(ws: Workspace, rel: string): ToolSpec {
  const content = ws.files.get(rel)
  if (content === undefined) return readMissing(ws, rel)
  const all = lines(content)
  const numbered = all.map((l, i) => `${i + 1}: ${l}`).join('\n')
  const text = all.join('\n')
  return {
    tool: 'read',
    input: { filePath: abs(ws, rel) },
    status: 'completed',
    title: rel,
    output: `<path>${abs(ws, rel)}</path>\n<type>file</type>\n<content>\n${numbered}\n\n(End of file - total ${all.length} lines)\n</content>`,
    metadata: {
      preview: all.slice(0, 20).join('\n'),
      truncated: false,
      loaded: [],
      display: { type: 'file', path: abs(ws, rel), text, lineStart: 1, lineEnd: all.length, totalLines: all.length, truncated: false },
    },
    durationMs: ws.random.int(20, 160),
  }
}

export function readMissing(ws: Workspace, rel: string): ToolSpec {
  return { tool: 'read', input: { filePath: abs(ws, rel) }, status: 'error', error: `File not found: ${abs(ws, rel)}`, durationMs: ws.random.int(10, 40) }
}

/** `read` of an image: the bytes go to `state.attachments[]` as a data: URL (§6.3). */
export function readImage(ws: Workspace, rel: string, dataUrl: string): ToolSpec {
  return {
    tool: 'read',
    input: { filePath: abs(ws, rel) },
    status: 'completed',
    title: rel,
    output: 'Image read successfully',
    metadata: { preview: 'Image read successfully', truncated: false, loaded: [] },
    attachments: [{ mime: 'image/png', url: dataUrl }],
    durationMs: ws.random.int(60, 220),
  }
}

const globToRegExp = (pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '(?:.*/)?').replace(/\*/g, '[^/]*')}$`)

export function globFiles(ws: Workspace, pattern: string): ToolSpec {
  const re = globToRegExp(pattern)
  const found = [...ws.files.keys()].filter((f) => re.test(f)).map((f) => abs(ws, f))
  return {
    tool: 'glob', input: { pattern }, status: 'completed', title: '',
    output: found.length ? found.join('\n') : 'No files found',
    metadata: { count: found.length, truncated: false },
    durationMs: ws.random.int(30, 120),
  }
}

/** `grep` over the workspace, formatted as ripgrep's results are in 1.18.33. */
export function grepFiles(ws: Workspace, pattern: string, include?: string): ToolSpec {
  const re = new RegExp(pattern)
  const only = include ? globToRegExp(`**/${include}`) : null
  const blocks: string[] = []
  let matches = 0
  for (const [rel, content] of ws.files) {
    if (only && !only.test(rel)) continue
    const hits = lines(content).flatMap((l, i) => (re.test(l) ? [`  Line ${i + 1}: ${l}`] : []))
    if (!hits.length) continue
    matches += hits.length
    blocks.push(`${abs(ws, rel)}:\n${hits.join('\n\n')}\n`)
  }
  return {
    tool: 'grep', input: { pattern, ...(include ? { include } : {}) }, status: 'completed', title: pattern,
    output: matches ? `Found ${matches} matches\n${blocks.join('\n\n')}` : 'No files found',
    metadata: { matches, truncated: false },
    durationMs: ws.random.int(25, 140),
  }
}

/**
 * `bash`: the running states stream the accumulated output in `metadata.output`, each stored in
 * full (§8.4). Long outputs stream in more chunks, which is where real logs get their bulk.
 */
export function runBash(ws: Workspace, command: string, description: string, output: string, exit = 0, durationMs?: number): ToolSpec {
  const progress: JsonObject[] = [{ output: '' }]
  if (output.length > 50_000) progress.push({ output: output.slice(0, output.lastIndexOf('\n', output.length / 2) + 1) })
  if (output) progress.push({ output })
  return {
    tool: 'bash', input: { command, description }, status: 'completed', title: command, output,
    metadata: { output, exit, truncated: false }, progress,
    durationMs: durationMs ?? ws.random.int(120, 2500),
  }
}

export function writeFile(ws: Workspace, rel: string, content: string): ToolSpec {
  const before = ws.files.get(rel)
  ws.files.set(rel, content)
  return {
    tool: 'write', input: { filePath: abs(ws, rel), content }, status: 'completed', title: rel, output: 'Wrote file successfully.',
    metadata: { diagnostics: {}, filepath: abs(ws, rel), exists: before !== undefined, truncated: false },
    files: [summaryChange(rel, before ?? '', content, before === undefined ? 'added' : 'modified')],
    durationMs: ws.random.int(15, 80),
  }
}

/** `edit`: one running state shows the diff before it is applied (observed in 1.18.33). */
export function editFile(ws: Workspace, rel: string, oldString: string, newString: string): ToolSpec {
  const before = ws.files.get(rel) ?? ''
  if (!before.includes(oldString)) throw new Error(`demo edit of ${rel}: oldString not found`)
  const after = before.replace(oldString, newString)
  ws.files.set(rel, after)
  const diff = diffTexts(before, after)
  const patch = toolPatch(abs(ws, rel), diff)
  const filediff = { file: abs(ws, rel), patch, additions: diff.additions, deletions: diff.deletions }
  return {
    tool: 'edit', input: { filePath: abs(ws, rel), oldString, newString }, status: 'completed', title: rel, output: 'Edit applied successfully.',
    metadata: { diagnostics: {}, diff: patch, filediff, truncated: false },
    progress: [{ diff: patch, filediff, diagnostics: {} }],
    files: [summaryChange(rel, before, after, 'modified')],
    durationMs: ws.random.int(20, 120),
  }
}

export type TodoStatus = 'pending' | 'in_progress' | 'completed'

export function writeTodos(ws: Workspace, todos: { content: string; status: TodoStatus; priority: string }[]): ToolSpec {
  const open = todos.filter((t) => t.status !== 'completed').length
  return {
    tool: 'todowrite', input: { todos }, status: 'completed', title: `${open} todos`,
    output: JSON.stringify(todos, null, 2), metadata: { todos, truncated: false },
    durationMs: ws.random.int(3, 20),
  }
}

export function runTask(ws: Workspace, child: ChildSessionSpec): ToolSpec {
  return {
    tool: 'task', input: { description: child.description, prompt: child.prompt, subagent_type: child.agent }, status: 'completed',
    child, durationMs: ws.random.int(50, 300),
  }
}
