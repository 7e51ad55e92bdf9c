import type { StorageGeneration } from '@loupe/domain'
import { A } from '@solidjs/router'
import { For, Show } from 'solid-js'
import { sessionHref } from '../../lib/links'
import { formatBytes, formatDuration } from '../../lib/format'
import { ClippedText } from './clipped-text'
import { Collapsible } from './collapsible'
import { ImageThumb } from './image-thumb'
import type { ToolView } from './message-model'

const STATUS_LABEL: Record<string, string> = {
  completed: 'done',
  error: 'error',
  running: 'running',
  pending: 'pending',
  streaming: 'streaming',
}

function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? 'undefined'
  } catch {
    return String(value)
  }
}

/** A tool call, collapsed to one line: name, status, what it was asked, how much it returned. */
export function ToolCall(props: { tool: ToolView; storage: StorageGeneration; initiallyOpen?: boolean; query?: string }) {
  const status = () => props.tool.status
  return (
    <div class="tool-call" data-status={status()}>
      <Collapsible
        initiallyOpen={props.initiallyOpen}
        summary={
          <span class="tool-summary">
            <span class="tool-name">{props.tool.name}</span>
            <span class={`badge badge-${status()}`}>{STATUS_LABEL[status()] ?? status()}</span>
            <span class="tool-input" title={props.tool.inputSummary}>{props.tool.title || props.tool.inputSummary}</span>
            <span class="tool-meta">
              <Show when={props.tool.compacted}>
                <span class="chip chip-muted" title="OpenCode already cleared this output from the model's context">cleared</span>
              </Show>
              <Show when={props.tool.durationMs !== undefined}>
                <span class="tool-duration">{formatDuration(props.tool.durationMs ?? 0)}</span>
              </Show>
              <span class="tool-size" title="Output size">{props.tool.outputBytes > 0 ? formatBytes(props.tool.outputBytes) : '—'}</span>
            </span>
          </span>
        }
      >
        <div class="tool-section">
          <div class="tool-section-label">Input</div>
          <ClippedText text={prettyJson(props.tool.input)} limit={2000} class="code-block" reveal={props.query} />
        </div>
        <Show when={props.tool.error}>
          <div class="tool-section">
            <div class="tool-section-label error">Error</div>
            <ClippedText text={props.tool.error ?? ''} class="code-block error-block" reveal={props.query} />
          </div>
        </Show>
        <Show when={props.tool.output !== null}>
          <div class="tool-section">
            <div class="tool-section-label">Output</div>
            <ClippedText text={props.tool.output ?? ''} class="code-block" reveal={props.query} />
          </div>
        </Show>
      </Collapsible>
      <Show when={props.tool.childSessionID}>
        {(id) => (
          <div class="tool-footer">
            <A href={sessionHref({ id: id(), storage: props.storage })}>Open the subagent session →</A>
          </div>
        )}
      </Show>
      <Show when={props.tool.images.length > 0}>
        <div class="thumbs tool-thumbs">
          <For each={props.tool.images}>{(image) => <ImageThumb image={image} />}</For>
        </div>
      </Show>
    </div>
  )
}
