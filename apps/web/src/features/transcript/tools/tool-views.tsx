import { createSignal, For, Show } from 'solid-js'
import { ClippedText } from '../clipped-text'
import { FilePath } from './file-path'
import { CodeLines } from './code-lines'
import type { NumberedLine, PathGroup, Todo } from './tool-shapes'

// Colour and cursor escapes from a terminal carry no meaning in a browser.
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g

/** A shell call as a terminal would show it: the prompt and command, then what it printed. */
export function TerminalBlock(props: { command: string; output: string; description?: string; workdir?: string; exit?: number; query?: string }) {
  return (
    <div class="terminal" role="group" aria-label={props.description ?? 'Shell command'}>
      <Show when={props.description || props.workdir}>
        <div class="terminal-caption">
          <Show when={props.description}>{props.description}</Show>
          <Show when={props.workdir}><span class="terminal-workdir" title="Working directory">{props.workdir}</span></Show>
        </div>
      </Show>
      <pre class="terminal-command"><span class="terminal-prompt" aria-hidden="true">$ </span>{props.command}</pre>
      <Show when={props.output} fallback={<div class="terminal-empty">(no output)</div>}>
        <ClippedText text={props.output.replace(ANSI, '')} class="terminal-output" limit={6000} reveal={props.query} />
      </Show>
      <Show when={props.exit !== undefined}>
        <div class="terminal-exit" classList={{ failed: props.exit !== 0 }}>exit {props.exit}</div>
      </Show>
    </div>
  )
}

const TODO_STATE: Record<string, { icon: string; word: string }> = {
  completed: { icon: '✓', word: 'done' },
  in_progress: { icon: '◐', word: 'in progress' },
  pending: { icon: '○', word: 'to do' },
  cancelled: { icon: '✕', word: 'cancelled' },
}

/** A todo list as a checklist: each item's state as a mark and a word, and its priority. */
export function TodoList(props: { todos: Todo[] }) {
  const done = () => props.todos.filter((t) => t.status === 'completed').length
  return (
    <div class="todo-view">
      <div class="tool-file-head">
        <span>{done()} of {props.todos.length} done</span>
      </div>
      <ul class="todo-list">
        <For each={props.todos}>
          {(todo) => {
            const state = TODO_STATE[todo.status] ?? { icon: '•', word: todo.status }
            return (
              <li class="todo" data-status={todo.status}>
                <span class="todo-mark" aria-hidden="true">{state.icon}</span>
                <span class="todo-content">{todo.content}</span>
                <span class="todo-state">{state.word}</span>
                <Show when={todo.priority}>
                  <span class={`todo-priority priority-${todo.priority}`} title="Priority">{todo.priority}</span>
                </Show>
              </li>
            )
          }}
        </For>
      </ul>
    </div>
  )
}

/** Paths a search found, each with its matching lines when there are any (grep). */
export function PathList(props: { header?: string; groups: PathGroup[]; limit?: number }) {
  const [all, setAll] = createSignal(false)
  const limit = () => props.limit ?? 200
  const shown = () => (all() ? props.groups : props.groups.slice(0, limit()))
  return (
    <div class="path-view">
      <Show when={props.header}><div class="tool-file-head">{props.header}</div></Show>
      <ul class="path-list">
        <For each={shown()}>
          {(group) => (
            <li>
              <span class="path" title={group.path}>{group.path}</span>
              <Show when={group.lines.length > 0}>
                <CodeLines rows={group.lines} limit={50} label={`Matches in ${group.path}`} />
              </Show>
            </li>
          )}
        </For>
      </ul>
      <Show when={!all() && props.groups.length > limit()}>
        <button type="button" class="link-button show-all" onClick={() => setAll(true)}>
          Show all {props.groups.length.toLocaleString()} paths
        </button>
      </Show>
    </div>
  )
}

/** A file's lines with their numbers (written content, or what `read` returned). */
export function FileView(props: { file: string; lines: NumberedLine[]; note?: string; query?: string }) {
  return (
    <div class="file-view">
      <div class="tool-file-head">
        <FilePath path={props.file} fallback="file" />
        <span class="muted">{props.lines.length === 1 ? '1 line' : `${props.lines.length.toLocaleString()} lines`}</span>
      </div>
      <Show when={props.lines.length > 0} fallback={<p class="muted">Empty file.</p>}>
        <CodeLines rows={props.lines} reveal={props.query} label={`Lines of ${props.file || 'the file'}`} />
      </Show>
      <Show when={props.note}><p class="file-note muted">{props.note}</p></Show>
    </div>
  )
}
