import { createSignal, For, Show } from 'solid-js'
import type { CodeRow } from './code-row'
import { matchPastLimit } from './reveal'

export interface CodeLinesProps {
  rows: CodeRow[]
  /** Two number columns (old, new) as a diff has, or one. */
  twoSided?: boolean
  /** Rows shown before "Show all"; outputs can be thousands of lines. */
  limit?: number
  label?: string
  /** The search that led here: a match past the limit opens every row. */
  reveal?: string
}

const digits = (rows: CodeRow[]) => String(rows.reduce((max, r) => Math.max(max, r.n ?? 0, r.old ?? 0), 1)).length

/** Lines with a line-number gutter, wrapped rather than overflowing, in a box that scrolls. */
export function CodeLines(props: CodeLinesProps) {
  // Read once: the rows of a part do not change while it is shown.
  const [all, setAll] = createSignal(matchPastLimit(props.rows, props.limit ?? 400, props.reveal))
  const limit = () => props.limit ?? 400
  const shown = () => (all() ? props.rows : props.rows.slice(0, limit()))
  return (
    <div class="code-lines-wrap">
      <div
        class="code-lines"
        classList={{ 'two-sided': props.twoSided }}
        style={{ '--ln-width': `${digits(props.rows) + 1}ch` }}
        role="table"
        aria-label={props.label}
      >
        <For each={shown()}>
          {(row) => (
            <div class="code-line" role="row" classList={{ gap: row.gap, add: row.sign === '+', del: row.sign === '-' }}>
              <Show when={props.twoSided}>
                <span class="ln" role="cell" aria-hidden="true">{row.old ?? ''}</span>
              </Show>
              <span class="ln" role="cell" aria-hidden="true">{row.n ?? ''}</span>
              <Show when={props.twoSided}>
                <span class="sign" role="cell" aria-hidden="true">{row.gap ? '' : row.sign ?? ' '}</span>
              </Show>
              <span class="code" role="cell">{row.text}</span>
            </div>
          )}
        </For>
      </div>
      <Show when={!all() && props.rows.length > limit()}>
        <button type="button" class="link-button show-all" onClick={() => setAll(true)}>
          Show all {props.rows.length.toLocaleString()} lines ({(props.rows.length - limit()).toLocaleString()} more)
        </button>
      </Show>
    </div>
  )
}
