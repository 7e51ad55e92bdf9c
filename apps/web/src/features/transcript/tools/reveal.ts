import { compileLiteralMatcher, parseQuery } from '@loupe/domain'
import { MAX_SEARCHED_CHARS } from '../../../lib/search-marks'
import type { CodeRow } from './code-row'
import type { ToolShape } from './tool-shapes'

/** Whether a search that led to a part matches this text (the same matcher that marks hits). */
export function matches(text: string, query: string | undefined): boolean {
  if (!query) return false
  return compileLiteralMatcher(parseQuery(query)).ranges(text.slice(0, MAX_SEARCHED_CHARS), 1).length > 0
}

/** Whether rows past `limit` hold a match, so the rows open whole instead of behind "Show all". */
export function matchPastLimit(rows: readonly CodeRow[], limit: number, query: string | undefined): boolean {
  if (!query || rows.length <= limit) return false
  return matches(rows.slice(limit).map((r) => r.text).join('\n'), query)
}

/** The text a rendered view shows, to tell whether a search's match is in sight or only in the raw JSON. */
export function shapeText(shape: ToolShape): string {
  switch (shape.kind) {
    case 'diff':
      return [shape.file, shape.patch ?? '', shape.before ?? '', shape.after ?? ''].join('\n')
    case 'file':
      return [shape.file, ...shape.lines.map((l) => l.text), shape.note ?? ''].join('\n')
    case 'terminal':
      return [shape.command, shape.description ?? '', shape.output].join('\n')
    case 'todos':
      return shape.todos.map((t) => t.content).join('\n')
    case 'paths':
      return [shape.header ?? '', ...shape.groups.flatMap((g) => [g.path, ...g.lines.map((l) => l.text)])].join('\n')
    case 'raw':
      return ''
  }
}
