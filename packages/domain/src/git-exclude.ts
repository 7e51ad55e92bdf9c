import { err, ok, type Result } from './result.js'

/** Where the Images conversation keeps design files, relative to its location. */
export const DESIGN_DIR = '.codenomad/design/'
/** The comment our rules sit under in `info/exclude`. */
export const CODENOMAD_EXCLUDE_HEADER = '# codenomad'
/** The session metadata key (ours, not OpenCode's) and its value for the Images conversation. */
export const COMPANION_METADATA_KEY = 'codenomad.companion'
export const IMAGES_COMPANION = 'images'

/** Escape gitignore's glob characters (`\`, `*`, `?`, `[`) so a path segment matches only itself. */
export function escapeGitGlob(text: string): string {
  return text.replace(/[\\*?[]/g, '\\$&')
}

/**
 * The exclude rule for a location, from `git rev-parse --show-prefix` ('' at the worktree top,
 * else `sub/dir/`). A nested rule is anchored with a leading slash: `info/exclude` is read at the
 * top of each worktree. A prefix git could not have printed, or one no ignore line can express
 * (line breaks, NUL), is refused.
 */
export function designExcludeRule(prefix: string): Result<string, 'unrepresentable'> {
  if (prefix === '') return ok(DESIGN_DIR)
  if (/[\n\r\0]/.test(prefix) || !prefix.endsWith('/') || prefix.startsWith('/') || prefix.includes('//')) {
    return err('unrepresentable')
  }
  return ok(`/${escapeGitGlob(prefix)}${DESIGN_DIR}`)
}

/** Git's trim_trailing_spaces: drop trailing spaces unless the first of them is backslash-escaped. */
function trimTrailingSpaces(line: string): string {
  let lastSpace = -1
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (c === ' ') {
      if (lastSpace < 0) lastSpace = i
    } else if (c === '\\') {
      i++
      if (i >= line.length) return line
      lastSpace = -1
    } else {
      lastSpace = -1
    }
  }
  return lastSpace < 0 ? line : line.slice(0, lastSpace)
}

/**
 * One line of an ignore file as git reads it: null for a blank line or a `#` comment, else the
 * pattern with one final `\r` and unescaped trailing spaces removed. Leading whitespace stays.
 */
export function readIgnoreLine(line: string): string | null {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line
  if (text === '' || text.startsWith('#')) return null
  return trimTrailingSpaces(text)
}

/** The lines of an ignore file (a leading UTF-8 BOM skipped, a final line break ending the last line). */
function ignoreLines(text: string): string[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text
  if (body === '') return []
  const lines = body.split('\n')
  if (body.endsWith('\n')) lines.pop()
  return lines
}

/** Every pattern git reads from an ignore file's text, in order. */
export function ignorePatterns(text: string): string[] {
  return ignoreLines(text).map(readIgnoreLine).filter((p): p is string => p !== null)
}

export type ExcludePlan = { kind: 'present' } | { kind: 'append'; text: string }

/**
 * What to append to an exclude file so git reads `rule` from it, never rewriting a byte: nothing
 * when an equivalent line exists; else the rule under `# codenomad` (reusing that comment when it
 * heads the file's last block), in the file's own line ending.
 */
export function planExcludeAppend(existing: string, rule: string): ExcludePlan {
  if (ignorePatterns(existing).includes(rule)) return { kind: 'present' }
  const lines = ignoreLines(existing)
  const eol = /\r\n$/.test(existing) || (!existing.endsWith('\n') && lines.at(-2)?.endsWith('\r')) ? '\r\n' : '\n'
  const separator = existing === '' || existing.endsWith('\n') ? '' : eol
  return { kind: 'append', text: `${separator}${headsLastBlock(lines) ? '' : CODENOMAD_EXCLUDE_HEADER + eol}${rule}${eol}` }
}

/** True when the file ends in `# codenomad` followed only by patterns (no blank line, no other comment). */
function headsLastBlock(lines: readonly string[]): boolean {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.replace(/\r$/, '')
    if (line.startsWith('#')) return trimTrailingSpaces(line) === CODENOMAD_EXCLUDE_HEADER
    if (line.trim() === '') return false
  }
  return false
}
