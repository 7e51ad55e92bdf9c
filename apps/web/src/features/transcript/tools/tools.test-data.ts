import type { V1NativeMessage } from '@loupe/domain'

/** Tool parts as the real OpenCode 1.18.33 wrote them (fixture rows, paths shortened). */
const P = '/repo/tally-1'
const ids = (n: number) => ({ id: `prt_t${String(n).padStart(3, '0')}`, sessionID: 'ses_t', messageID: 'msg_t' })
const time = { start: 1_796_164_930_000, end: 1_796_164_930_040 }

export const editPart = {
  ...ids(1), type: 'tool', tool: 'edit', callID: 'call_e',
  state: {
    status: 'completed',
    input: { filePath: `${P}/src/slug-2.js`, oldString: '  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-")', newString: '  return s\n    .toLowerCase()\n    .replace(/[^a-z0-9]+/g, "-")\n    .replace(/-{2,}/g, "-")\n    .replace(/^-|-$/g, "")' },
    output: 'Edit applied successfully.',
    metadata: {
      diagnostics: {},
      diff: `Index: ${P}/src/slug-2.js\n===================================================================\n--- ${P}/src/slug-2.js\n+++ ${P}/src/slug-2.js\n@@ -1,4 +1,8 @@\n // Slug helper.\n export function slugify(s) {\n-  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-")\n+  return s\n+    .toLowerCase()\n+    .replace(/[^a-z0-9]+/g, "-")\n+    .replace(/-{2,}/g, "-")\n+    .replace(/^-|-$/g, "")\n }\n`,
      truncated: false,
    },
    title: 'src/slug-2.js', time,
  },
}

export const writePart = {
  ...ids(2), type: 'tool', tool: 'write', callID: 'call_w',
  state: {
    status: 'completed',
    input: { filePath: `${P}/notes/session-2.md`, content: '# slugify (src/slug-2.js)\n\n- lower-cases\n- collapses repeated dashes\n- trims dashes at both ends\n' },
    output: 'Wrote file successfully.', metadata: { diagnostics: {}, filepath: `${P}/notes/session-2.md`, exists: false, truncated: false }, title: 'notes/session-2.md', time,
  },
}

const todos = [
  { content: 'Create src/slug-2.js with slugify()', status: 'completed', priority: 'high' },
  { content: 'Collapse repeated dashes and trim', status: 'in_progress', priority: 'medium' },
  { content: 'Run a quick check', status: 'pending', priority: 'low' },
  { content: 'Publish to npm', status: 'cancelled', priority: 'low' },
]
export const todoPart = {
  ...ids(3), type: 'tool', tool: 'todowrite', callID: 'call_t',
  state: { status: 'completed', input: { todos }, output: JSON.stringify(todos, null, 2), metadata: { todos, truncated: false }, title: '4 todos', time },
}

export const bashPart = {
  ...ids(4), type: 'tool', tool: 'bash', callID: 'call_b',
  state: { status: 'completed', input: { command: 'node src/cli.js', description: 'Run the CLI without arguments' }, output: 'usage: tally FILE [--top N]\n', metadata: { output: 'usage: tally FILE [--top N]\n', exit: 2, truncated: false }, title: 'node src/cli.js', time },
}

export const readPart = {
  ...ids(5), type: 'tool', tool: 'read', callID: 'call_r',
  state: {
    status: 'completed', input: { filePath: `${P}/README.md` },
    output: `<path>${P}/README.md</path>\n<type>file</type>\n<content>\n1: # tally\n2: \n3: A tiny word-count CLI.\n4: \n5:     node src/cli.js FILE [--top N]\n\n(End of file - total 5 lines)\n</content>`,
    metadata: { preview: '# tally', truncated: false, loaded: [] }, title: 'README.md', time,
  },
}

export const grepPart = {
  ...ids(6), type: 'tool', tool: 'grep', callID: 'call_g',
  state: {
    status: 'completed', input: { pattern: 'export function', include: '*.js' },
    output: `Found 4 matches\n${P}/src/format.js:\n  Line 2: export function formatTable(rows) {\n\n\n${P}/src/count.js:\n  Line 2: export function words(text) {\n\n  Line 6: export function countWords(text) {\n\n  Line 10: export function topWords(text, n = 5) {\n`,
    metadata: { matches: 4, truncated: false }, title: 'export function', time,
  },
}

export const globPart = {
  ...ids(7), type: 'tool', tool: 'glob', callID: 'call_l',
  state: { status: 'completed', input: { pattern: '**/*.js' }, output: `${P}/test/count.test.js\n${P}/src/format.js\n${P}/src/cli.js`, metadata: { count: 3, truncated: false }, title: '', time },
}

export const emptyGlobPart = {
  ...ids(8), type: 'tool', tool: 'glob', callID: 'call_n',
  state: { status: 'completed', input: { pattern: '**/*config*' }, output: 'No files found', metadata: { count: 0, truncated: false }, title: '', time },
}

/** The two synthetic parts OpenCode adds for an @-mentioned file, then the user's own text. */
export const atFileParts = [
  { ...ids(9), type: 'text', text: 'Explain @src/cli.js' },
  { ...ids(10), type: 'text', synthetic: true, text: `Called the Read tool with the following input: {"filePath":"${P}/src/cli.js"}` },
  { ...ids(11), type: 'text', synthetic: true, text: `<path>${P}/src/cli.js</path>\n<type>file</type>\n<content>\n1: #!/usr/bin/env node\n2: import fs from "node:fs"\n3: \n4: const [file] = process.argv.slice(2)\n\n(End of file - total 4 lines)\n</content>` },
]

export const toolMessage = (parts: Record<string, unknown>[], role: 'assistant' | 'user' = 'assistant'): V1NativeMessage => ({
  storage: 'v1',
  id: 'msg_t' as V1NativeMessage['id'],
  info: { role, agent: 'build', modelID: 'scripted', time: { created: 1_796_164_929_000, completed: 1_796_164_935_000 } },
  parts,
})
