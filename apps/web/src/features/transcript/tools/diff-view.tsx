import { parsePatch, structuredPatch, type StructuredPatch } from 'diff'
import { createMemo, Show } from 'solid-js'
import { FilePath } from './file-path'
import { CodeLines } from './code-lines'
import type { CodeRow } from './code-row'

/** A hunk list as rows: a header row per hunk, then context, removed and added lines numbered per side. */
export function hunkRows(patches: StructuredPatch[]): CodeRow[] {
  const rows: CodeRow[] = []
  for (const patch of patches) {
    for (const hunk of patch.hunks) {
      rows.push({ gap: true, text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` })
      let oldN = hunk.oldStart
      let newN = hunk.newStart
      for (const line of hunk.lines) {
        const sign = line[0]
        const text = line.slice(1)
        if (sign === '+') rows.push({ sign: '+', n: newN++, text })
        else if (sign === '-') rows.push({ sign: '-', old: oldN++, text })
        else if (sign === ' ') rows.push({ sign: ' ', old: oldN++, n: newN++, text })
      }
    }
  }
  return rows
}

/**
 * A unified diff (OpenCode's `metadata.diff`) or the change from `before` to `after`. A patch
 * jsdiff cannot read (OpenCode's `*** Begin Patch` envelope) reads as no hunks; the raw text
 * is then shown with each line marked by its first character.
 */
export function diffRows(input: { patch?: string; before?: string; after?: string; file?: string }): CodeRow[] {
  if (input.patch !== undefined) {
    let patches: StructuredPatch[] = []
    try {
      patches = parsePatch(input.patch)
    } catch {
      patches = []
    }
    const rows = hunkRows(patches)
    if (rows.length) return rows
    return input.patch.split('\n').map((text) => {
      const sign = text[0] === '+' || text[0] === '-' ? text[0] : ' '
      return { sign, text: sign === ' ' ? text : text.slice(1) }
    })
  }
  const file = input.file ?? ''
  return hunkRows([structuredPatch(file, file, input.before ?? '', input.after ?? '', '', '', { context: 3 })])
}

/** An edit as a diff: the file, lines added and removed, and the hunks. */
export function DiffView(props: { file: string; patch?: string; before?: string; after?: string; query?: string }) {
  const rows = createMemo(() => diffRows(props))
  const added = () => rows().filter((r) => r.sign === '+').length
  const removed = () => rows().filter((r) => r.sign === '-').length
  return (
    <div class="diff-view">
      <div class="tool-file-head">
        <FilePath path={props.file} fallback="patch" />
        <span class="diff-stat">
          <span class="diff-add">+{added()}</span> <span class="diff-del">−{removed()}</span>
        </span>
      </div>
      <Show when={rows().length > 0} fallback={<p class="muted">No changes.</p>}>
        <CodeLines rows={rows()} twoSided reveal={props.query} label={`Changes to ${props.file || 'the patch'}`} />
      </Show>
    </div>
  )
}
