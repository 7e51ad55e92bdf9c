import { createMemo, createSignal, Match, Show, Switch } from 'solid-js'
import { ClippedText } from '../clipped-text'
import type { ToolView } from '../message-model'
import { DiffView } from './diff-view'
import { matches, shapeText } from './reveal'
import { toolShape, type ToolShape } from './tool-shapes'
import { FileView, PathList, TerminalBlock, TodoList } from './tool-views'

export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? 'undefined'
  } catch {
    return String(value)
  }
}

type Of<K extends ToolShape['kind']> = Extract<ToolShape, { kind: K }>
const is = <K extends ToolShape['kind']>(shape: ToolShape, kind: K) => (shape.kind === kind ? (shape as Of<K>) : false)

/** A short result sentence worth showing beside a rendered view ("Edit applied successfully."). */
const sentence = (output: string | null) => (output && output.length <= 200 && !output.includes('\n') ? output : undefined)

/** Input and output as they are: tools Loupe has no view for, and anything that did not parse. */
function RawSections(props: { tool: ToolView; query?: string }) {
  return (
    <>
      <div class="tool-section">
        <div class="tool-section-label">Input</div>
        <ClippedText text={prettyJson(props.tool.input)} limit={2000} class="code-block" reveal={props.query} />
      </div>
      <Show when={props.tool.output !== null}>
        <div class="tool-section">
          <div class="tool-section-label">Output</div>
          <ClippedText text={props.tool.output ?? ''} class="code-block" reveal={props.query} />
        </div>
      </Show>
    </>
  )
}

/**
 * A tool call's body, as the tool is read: a diff, a file with line numbers, a terminal, a
 * checklist or a path list; any other tool as input and output. The stored JSON is one click away.
 */
export function ToolBody(props: { tool: ToolView; query?: string }) {
  const shape = createMemo(() => toolShape(props.tool))
  // A search that matched only what the view leaves out (an id, a metadata field) opens the raw JSON.
  const [raw, setRaw] = createSignal(shape().kind !== 'raw' && !!props.query && !matches(shapeText(shape()), props.query) && matches(prettyJson(props.tool.raw), props.query))
  return (
    <div class="tool-body" data-view={shape().kind}>
      <Show when={props.tool.error}>
        <div class="tool-section">
          <div class="tool-section-label error">Error</div>
          <ClippedText text={props.tool.error ?? ''} class="code-block error-block" reveal={props.query} />
        </div>
      </Show>
      <Switch fallback={<RawSections tool={props.tool} query={props.query} />}>
        <Match when={is(shape(), 'diff')}>{(s) => <DiffView file={s().file} patch={s().patch} before={s().before} after={s().after} query={props.query} />}</Match>
        <Match when={is(shape(), 'file')}>{(s) => <FileView file={s().file} lines={s().lines} note={s().note} query={props.query} />}</Match>
        <Match when={is(shape(), 'terminal')}>
          {(s) => <TerminalBlock command={s().command} output={s().output} description={s().description} workdir={s().workdir} exit={s().exit} query={props.query} />}
        </Match>
        <Match when={is(shape(), 'todos')}>{(s) => <TodoList todos={s().todos} />}</Match>
        <Match when={is(shape(), 'paths')}>{(s) => <PathList header={s().header} groups={s().groups} />}</Match>
      </Switch>
      <Show when={(shape().kind === 'diff' || (shape().kind === 'file' && props.tool.name === 'write')) && sentence(props.tool.output)}>
        {(text) => <p class="tool-result muted">{text()}</p>}
      </Show>
      <div class="tool-raw">
        <button type="button" class="link-button" aria-expanded={raw()} onClick={() => setRaw(!raw())}>
          {raw() ? 'Hide raw JSON' : 'Raw JSON'}
        </button>
        <Show when={raw()}>
          <ClippedText text={prettyJson(props.tool.raw)} limit={4000} class="code-block" reveal={props.query} />
        </Show>
      </div>
    </div>
  )
}
