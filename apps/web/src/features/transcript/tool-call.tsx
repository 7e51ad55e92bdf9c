import { toolStatusWord, type StorageGeneration } from '@loupe/domain'
import { A } from '@solidjs/router'
import { For, Show } from 'solid-js'
import { sessionHref } from '../../lib/links'
import { formatBytes, formatDuration } from '../../lib/format'
import { Collapsible } from './collapsible'
import { ImageThumb } from './image-thumb'
import type { ToolView } from './message-model'
import { ToolBody } from './tools/tool-body'

/** A tool call, collapsed to one line: name, status, what it was asked, how much it returned. */
export function ToolCall(props: { tool: ToolView; storage: StorageGeneration; bytes: number; initiallyOpen?: boolean; query?: string }) {
  const sizeHint = () => `This part as stored: ${formatBytes(props.bytes)} (input, output and details; what pruning removes). Output: ${formatBytes(props.tool.outputBytes)}.`
  const status = () => props.tool.status
  return (
    <div class="tool-call" data-status={status()}>
      <Collapsible
        initiallyOpen={props.initiallyOpen}
        summary={
          <span class="tool-summary">
            <span class="tool-name">{props.tool.name}</span>
            <span class={`badge badge-${status()}`}>{toolStatusWord(status())}</span>
            <span class="tool-input" title={props.tool.inputSummary}>{props.tool.title || props.tool.inputSummary}</span>
            <span class="tool-meta">
              <Show when={props.tool.compacted}>
                <span class="chip chip-muted" title="OpenCode already cleared this output from the model's context">cleared</span>
              </Show>
              <Show when={props.tool.durationMs !== undefined}>
                <span class="tool-duration">{formatDuration(props.tool.durationMs ?? 0)}</span>
              </Show>
              <span class="tool-size" title={sizeHint()}>{formatBytes(props.bytes)}</span>
            </span>
          </span>
        }
      >
        <ToolBody tool={props.tool} query={props.query} />
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
