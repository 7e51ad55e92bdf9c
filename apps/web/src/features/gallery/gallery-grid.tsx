import { createEffect, createSignal, For, Match, onCleanup, onMount, Show, Switch } from 'solid-js'
import { formatBytes, formatRelativeTime } from '../../lib/format'
import type { GalleryEntry, GalleryFeed, ImageUrls } from './gallery.data'

/** What a tile says about where an image came from. */
export function originLabel(entry: GalleryEntry): { text: string; tone: 'read' | 'generated' | 'pasted' | 'generation' } {
  if (entry.kind === 'generation') return { text: 'Generation', tone: 'generation' }
  if (entry.source === 'pasted') return { text: 'Pasted', tone: 'pasted' }
  return entry.origin === 'generated' ? { text: 'Generated', tone: 'generated' } : { text: 'Read', tone: 'read' }
}

export const OUTCOME_TEXT: Record<string, string> = {
  completed: 'saved',
  error: 'failed',
  cancelled: 'cancelled',
  unknown: 'outcome unknown',
}

function Tile(props: { entry: GalleryEntry; index: number; urls: ImageUrls; onOpen: (index: number) => void }) {
  const [failed, setFailed] = createSignal(false)
  const label = () => originLabel(props.entry)
  const title = () => (props.entry.kind === 'image' ? (props.entry.name ?? props.entry.mime) : 'Image generation')
  return (
    <li class="gallery-tile" data-kind={props.entry.kind} data-tone={label().tone}>
      <button type="button" class="gallery-tile-button" onClick={() => props.onOpen(props.index)} aria-label={`${label().text}: ${title()}`}>
        <span class="gallery-thumb">
        <Switch>
          <Match when={props.entry.kind === 'generation' && props.entry}>
            {(gen) => (
              <div class="gallery-generation">
                <span class="gallery-generation-mark" aria-hidden="true">✦</span>
                <span class="gallery-generation-state">{gen().status === 'completed' ? OUTCOME_TEXT[gen().outcome] : gen().status}</span>
                <Show when={gen().prompt}>
                  <span class="gallery-generation-prompt">{gen().prompt}</span>
                </Show>
              </div>
            )}
          </Match>
          <Match when={props.entry.kind === 'image' && props.entry}>
            {(image) => (
              <Show when={image().available && !failed()} fallback={<div class="gallery-unavailable">{image().available ? 'No preview' : 'Not stored inline'}</div>}>
                <img src={props.urls.thumb(props.entry, 256)} alt={title()} loading="lazy" decoding="async" onError={() => setFailed(true)} />
              </Show>
            )}
          </Match>
        </Switch>
        </span>
        <span class="gallery-tile-caption">
          <span class={`gallery-origin gallery-origin-${label().tone}`}>{label().text}</span>
          <span class="gallery-tile-name">{props.entry.kind === 'image' ? title() : formatRelativeTime(props.entry.time)}</span>
          <Show when={props.entry.kind === 'image' && props.entry}>{(image) => <span class="gallery-tile-size">{formatBytes(image().bytes)}</span>}</Show>
        </span>
      </button>
    </li>
  )
}

/**
 * A responsive grid of thumbnails that loads the next pages while its end is in view. The grid is
 * a list, so screen readers announce how many images there are; each tile opens the lightbox.
 */
export function GalleryGrid(props: { feed: GalleryFeed; urls: ImageUrls; onOpen: (index: number) => void; emptyHint?: string }) {
  let sentinel: HTMLDivElement | undefined
  const [inView, setInView] = createSignal(false)
  onMount(() => {
    if (!sentinel || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => setInView(entries.some((e) => e.isIntersecting)), { rootMargin: '600px' })
    observer.observe(sentinel)
    onCleanup(() => observer.disconnect())
  })
  // Keep loading while the end of the grid is on screen: a page of text-only messages adds nothing.
  createEffect(() => {
    if (inView() && !props.feed.loading() && !props.feed.done() && !props.feed.blocked() && !props.feed.error()) void props.feed.loadMore()
  })
  const empty = () => props.feed.entries().length === 0 && props.feed.done() && !props.feed.loading()
  return (
    <div class="gallery">
      <Show when={!empty()} fallback={<p class="gallery-empty">{props.emptyHint ?? 'No images in this session.'}</p>}>
        <ul class="gallery-grid" aria-label="Images">
          <For each={props.feed.entries()}>{(entry, i) => <Tile entry={entry} index={i()} urls={props.urls} onOpen={props.onOpen} />}</For>
          <Show when={props.feed.loading() && props.feed.entries().length === 0}>
            <For each={Array.from({ length: 8 }, (_, i) => i)}>{() => <li class="gallery-tile gallery-tile-skeleton" aria-hidden="true" />}</For>
          </Show>
        </ul>
      </Show>
      <Show when={props.feed.blocked()}>
        {(blocked) => (
          <div class="banner banner-warn gallery-blocked" role="status">
            A message of {formatBytes(blocked().bytes)} is over the 16 MB a message may have, so Loupe does not read it; images in it are not shown.{' '}
            <Show when={blocked().resume}>
              <button type="button" class="link-button" onClick={() => props.feed.skipBlocked()}>Skip it and show older images</button>
            </Show>
          </div>
        )}
      </Show>
      <div ref={sentinel} class="gallery-sentinel" aria-hidden="true" />
      <Show when={props.feed.loading() && props.feed.entries().length > 0}>
        <p class="gallery-more" role="status">Loading older images…</p>
      </Show>
      <Show when={!props.feed.loading() && !props.feed.done() && !props.feed.blocked() && !props.feed.error() && props.feed.entries().length > 0}>
        <button type="button" class="button button-quiet gallery-more" onClick={() => void props.feed.loadMore()}>Load older images</button>
      </Show>
    </div>
  )
}
