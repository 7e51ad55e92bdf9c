import { isObject } from './json-read.js'

const FIELDS_BY_TOOL: Record<string, readonly string[]> = {
  bash: ['description', 'command'],
  shell: ['description', 'command'],
  read: ['filePath', 'path'],
  write: ['filePath', 'path'],
  edit: ['filePath', 'path'],
  glob: ['pattern'],
  grep: ['pattern'],
  task: ['description'],
  subagent: ['description'],
  webfetch: ['url'],
  websearch: ['query'],
  skill: ['name'],
}
const GENERIC_FIELDS = ['description', 'filePath', 'path', 'command', 'pattern', 'url', 'query', 'prompt']

/** A one-line, at most `max` characters, human summary of a tool call's input. */
export function summarizeToolInput(tool: string | undefined, input: unknown, max = 120): string {
  if (!isObject(input)) return ''
  if ((tool === 'todowrite' || tool === 'todoread') && Array.isArray(input.todos)) {
    return `${input.todos.length} todo${input.todos.length === 1 ? '' : 's'}`
  }
  const fields = (tool && FIELDS_BY_TOOL[tool]) || GENERIC_FIELDS
  for (const field of fields) {
    const value = input[field]
    if (typeof value === 'string' && value.trim()) return clip(value.replace(/\s+/g, ' ').trim(), max)
  }
  const json = JSON.stringify(input)
  return json === '{}' ? '' : clip(json, max)
}

const clip = (text: string, max: number) => (text.length <= max ? text : text.slice(0, max - 1) + '…')
