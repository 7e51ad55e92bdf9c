import type { StorageGeneration } from '@loupe/domain'
import { Match, Show, Switch, type JSX } from 'solid-js'
import { formatBytes, formatDuration } from '../../lib/format'
import { Collapsible } from './collapsible'
import { ImageThumb } from './image-thumb'
import { Markdown } from './markdown'
import type { ViewItem } from './message-model'
import { PatchLine, UsageLine } from './step-lines'
import { SyntheticText } from './synthetic-text'
import { ToolCall } from './tool-call'

export interface ItemViewProps {
  item: ViewItem
  storage: StorageGeneration
  highlighted: boolean
  /** The search that led to this part: clipped text moves its cut past the first match. */
  query?: string
  /** Room for per-part controls (selection for pruning); rendered at the item's right edge. */
  controls?: JSX.Element
}

/** One part of a message, by kind; unknown kinds get a neutral chip and never break the page. */
export function ItemView(props: ItemViewProps) {
  return (
    <div class={`item item-${props.item.kind}`} classList={{ highlighted: props.highlighted }} data-part={props.item.ref}>
      <div class="item-content">
        <Switch>
          <Match when={props.item.kind === 'text' && props.item}>
            {(text) => (
              <Show when={text().synthetic} fallback={<Markdown text={text().text} />}>
                <Collapsible initiallyOpen={props.highlighted} summary={<span class="muted">Context added by OpenCode · {formatBytes(text().bytes)}</span>}>
                  <SyntheticText text={text().text} query={props.query} />
                </Collapsible>
              </Show>
            )}
          </Match>
          <Match when={props.item.kind === 'reasoning' && props.item}>
            {(reasoning) => (
              <Collapsible
                class="reasoning"
                initiallyOpen={props.highlighted}
                summary={
                  <span class="reasoning-summary">
                    <span class="reasoning-label">Reasoning</span>
                    <span class="reasoning-preview">{reasoning().text.slice(0, 140)}</span>
                    <span class="tool-meta">
                      <Show when={reasoning().durationMs !== undefined}>{formatDuration(reasoning().durationMs ?? 0)} · </Show>
                      {formatBytes(reasoning().bytes)}
                    </span>
                  </span>
                }
              >
                <Markdown text={reasoning().text} class="reasoning-text" />
              </Collapsible>
            )}
          </Match>
          <Match when={props.item.kind === 'tool' && props.item}>{(tool) => <ToolCall tool={tool().tool} storage={props.storage} bytes={tool().bytes} initiallyOpen={props.highlighted} query={props.query} />}</Match>
          <Match when={props.item.kind === 'image' && props.item}>{(image) => <div class="thumbs"><ImageThumb image={image().image} /></div>}</Match>
          <Match when={props.item.kind === 'file' && props.item}>{(file) => <span class="chip" title={file().mime}>📎 {file().name}</span>}</Match>
          <Match when={props.item.kind === 'usage' && props.item}>{(usage) => <UsageLine usage={usage().usage} />}</Match>
          <Match when={props.item.kind === 'patch' && props.item}>{(patch) => <PatchLine files={patch().files} />}</Match>
          <Match when={props.item.kind === 'note' && props.item}>
            {(note) => (
              <Show when={note().detail} fallback={<span class={`note note-${note().tone}`}>{note().label}</span>}>
                <Collapsible class={`note note-${note().tone}`} initiallyOpen={props.highlighted} summary={<span>{note().label}</span>}>
                  <Markdown text={note().detail ?? ''} />
                </Collapsible>
              </Show>
            )}
          </Match>
          <Match when={props.item.kind === 'divider' && props.item}>
            {(divider) => (
              <div class="divider" role="separator">
                <Show when={divider().detail} fallback={<span class="divider-label">{divider().label}</span>}>
                  <Collapsible class="divider-label" initiallyOpen={props.highlighted} summary={<span>{divider().label}</span>}>
                    <Markdown text={divider().detail ?? ''} />
                  </Collapsible>
                </Show>
              </div>
            )}
          </Match>
          <Match when={props.item.kind === 'unknown' && props.item}>
            {(unknown) => (
              <span class="chip chip-unknown" title="Loupe does not know this part type yet; it is shown, not interpreted.">
                Unknown part · {unknown().type} · {formatBytes(unknown().bytes)}
              </span>
            )}
          </Match>
        </Switch>
      </div>
      <Show when={props.controls}>
        <div class="item-controls">{props.controls}</div>
      </Show>
    </div>
  )
}
