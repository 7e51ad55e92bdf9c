import type { FileChange } from './demo-spec.js'

export interface TextDiff {
  /** Single-hunk unified diff body: `@@ … @@` and the lines, three lines of context. */
  hunk: string
  additions: number
  deletions: number
}

/** Diff two texts as one hunk spanning the first to the last changed line. */
export function diffTexts(before: string, after: string): TextDiff {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n')
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n')
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const from = Math.max(0, head - 3)
  const toA = Math.min(a.length, a.length - tail + 3)
  const toB = Math.min(b.length, b.length - tail + 3)
  const lines = [
    ...a.slice(from, head).map((l) => ` ${l}`),
    ...a.slice(head, a.length - tail).map((l) => `-${l}`),
    ...b.slice(head, b.length - tail).map((l) => `+${l}`),
    ...a.slice(a.length - tail, toA).map((l) => ` ${l}`),
  ]
  const range = (start: number, count: number) => (count === 0 ? `${start},0` : `${start + 1},${count}`)
  return {
    hunk: `@@ -${range(from, toA - from)} +${range(from, toB - from)} @@\n${lines.join('\n')}\n`,
    additions: b.length - tail - head,
    deletions: a.length - tail - head,
  }
}

const RULE = '==================================================================='

/** The tool-metadata form: absolute paths, no tabs (edit's `metadata.diff`). */
export function toolPatch(absPath: string, diff: TextDiff): string {
  return `Index: ${absPath}\n${RULE}\n--- ${absPath}\n+++ ${absPath}\n${diff.hunk}`
}

/** The `summary.diffs` entry of a user message: relative path, tab after each file name. */
export function summaryChange(rel: string, before: string, after: string, status: FileChange['status']): FileChange {
  const diff = diffTexts(before, after)
  return { file: rel, patch: `Index: ${rel}\n${RULE}\n--- ${rel}\t\n+++ ${rel}\t\n${diff.hunk}`, additions: diff.additions, deletions: diff.deletions, status }
}
