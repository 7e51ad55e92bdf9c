import { createEffect, createSignal, For, Match, on, onMount, Show, Switch, type JSX } from 'solid-js'
import { formatAbsoluteTime, formatBytes } from '../../lib/format'
import { originLabel, OUTCOME_TEXT } from './gallery-grid'
import type { GalleryEntry, GalleryFeed, GenerationEntry, ImageEntry, ImageUrls } from './gallery.data'

export interface LightboxActions {
  /** The owner's link into the transcript (absent on share links). */
  transcriptHref?: (entry: GalleryEntry) => string | undefined
  /** The owner's "copy reference": resolves to what to tell the person. */
  copyReference?: (entry: GalleryEntry) => Promise<string>
}

export interface LightboxProps extends LightboxActions {
  feed: GalleryFeed
  urls: ImageUrls
  index: number
  onIndex: (index: number) => void
  onClose: () => void
}

const ORIGIN_TEXT = {
  read: 'The agent read this image from a file; Loupe cannot prove how that file was made.',
  generated: 'Generated: Loupe proved which image generation wrote the file the agent then read.',
  pasted: 'Pasted into the conversation by the user.',
  generation: 'A call to the image generation tool. Its pixels are in the file it saved, shown when the agent read it.',
} as const

/** Indexes of loaded entries with this generation key: the generation itself, then images it made. */
const byKey = (entries: GalleryEntry[], key: string) =>
  entries.flatMap((e, i) => ((e.kind === 'generation' && e.generationKey === key) || (e.kind === 'image' && e.generationKey === key) ? [i] : []))

/**
 * One image at a time over the whole page: ← and → (or a swipe) move through the loaded entries and
 * load older pages at the end; Esc closes. The picture is the 1024 px preview decoded within bounds;
 * the original is one click away as a download.
 */
export function Lightbox(props: LightboxProps) {
  let dialog: HTMLDialogElement | undefined
  const entry = () => props.feed.entries()[props.index]
  const total = () => props.feed.entries().length
  const [note, setNote] = createSignal<string>()
  const [failed, setFailed] = createSignal(false)
  createEffect(on(() => props.index, () => {
    setNote(undefined)
    setFailed(false)
    if (props.index >= total() - 3 && !props.feed.done()) void props.feed.loadMore()
  }))

  const go = (delta: number) => {
    const next = props.index + delta
    if (next >= 0 && next < total()) props.onIndex(next)
  }
  onMount(() => {
    if (dialog && typeof dialog.showModal === 'function' && !dialog.open) dialog.showModal()
    dialog?.focus()
  })
  const onKey = (event: KeyboardEvent) => {
    const moves: Record<string, () => void> = {
      ArrowRight: () => go(1),
      ArrowLeft: () => go(-1),
      Home: () => props.onIndex(0),
      End: () => props.onIndex(total() - 1),
    }
    const move = moves[event.key]
    if (move && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault()
      move()
    }
  }
  let touchX: number | undefined
  const copy = async (current: GalleryEntry) => {
    if (!props.copyReference) return
    setNote('…')
    setNote(await props.copyReference(current).catch((e: unknown) => (e instanceof Error ? e.message : String(e))))
  }

  return (
    <dialog ref={dialog} class="gallery-lightbox" aria-label="Image viewer" tabIndex={-1} onClose={() => props.onClose()} onKeyDown={onKey}>
      <Show when={entry()}>
        {(current) => (
          <div class="lb">
            <div
              class="lb-stage"
              onClick={(event) => event.target === event.currentTarget && dialog?.close()}
              onTouchStart={(event) => (touchX = event.touches[0]?.clientX)}
              onTouchEnd={(event) => {
                const end = event.changedTouches[0]?.clientX
                if (touchX !== undefined && end !== undefined && Math.abs(end - touchX) > 50) go(end < touchX ? 1 : -1)
                touchX = undefined
              }}
            >
              <button type="button" class="lb-nav lb-prev" aria-label="Previous image" disabled={props.index === 0} onClick={() => go(-1)}>‹</button>
              <Switch>
                <Match when={current().kind === 'image' && (current() as ImageEntry)}>
                  {(image) => (
                    <Show when={image().available && !failed()} fallback={<div class="lb-placeholder">{image().available ? 'This image is too large or malformed to preview safely. Download the original to open it.' : 'This image is not stored in the transcript itself, so there is nothing to show.'}</div>}>
                      <img
                        class="lb-image"
                        src={props.urls.thumb(image(), 1024)}
                        alt={image().name ?? 'image'}
                        style={{ 'background-image': `url("${props.urls.thumb(image(), 256)}")` }}
                        onError={() => setFailed(true)}
                      />
                    </Show>
                  )}
                </Match>
                <Match when={current().kind === 'generation' && (current() as GenerationEntry)}>
                  {(gen) => (
                    <div class="lb-placeholder lb-generation">
                      <span class="gallery-generation-mark" aria-hidden="true">✦</span>
                      <p>Image generation · {gen().status}, {OUTCOME_TEXT[gen().outcome]}</p>
                    </div>
                  )}
                </Match>
              </Switch>
              <button type="button" class="lb-nav lb-next" aria-label="Next image" disabled={props.index >= total() - 1} onClick={() => go(1)}>›</button>
            </div>
            <aside class="lb-info">
              <div class="lb-info-head">
                <span class="lb-counter num">{props.index + 1} of {total()}{props.feed.done() ? '' : '+'}</span>
                <button type="button" class="icon-button lb-close" aria-label="Close" onClick={() => dialog?.close()}>×</button>
              </div>
              <h2 class="lb-title">{current().kind === 'image' ? ((current() as ImageEntry).name ?? 'Image') : 'Image generation'}</h2>
              <p class="lb-origin"><span class={`gallery-origin gallery-origin-${originLabel(current()).tone}`}>{originLabel(current()).text}</span> {ORIGIN_TEXT[originLabel(current()).tone]}</p>
              <dl class="lb-facts">
                <Show when={current().kind === 'image' && (current() as ImageEntry)}>
                  {(image) => (
                    <>
                      <dt>Type</dt><dd>{image().mime}</dd>
                      <dt>Size</dt><dd class="num">{formatBytes(image().bytes)}</dd>
                    </>
                  )}
                </Show>
                <dt>When</dt><dd>{formatAbsoluteTime(current().time)}</dd>
                <Show when={current().model}><dt>Model</dt><dd>{current().model}</dd></Show>
              </dl>
              <Show when={current().prompt}>
                <figure class="lb-prompt">
                  <figcaption>Prompt</figcaption>
                  <blockquote>{current().prompt}{current().promptTruncated ? '…' : ''}</blockquote>
                </figure>
              </Show>
              <Lineage entry={current()} entries={props.feed.entries()} onIndex={props.onIndex} />
              <div class="lb-actions">
                <Show when={current().kind === 'image' && (current() as ImageEntry).available}>
                  <a class="button" href={props.urls.file(current(), true)} download="">Download</a>
                </Show>
                <Show when={props.copyReference !== undefined && (current().kind === 'generation' || (current() as ImageEntry).source === 'read')}>
                  <button type="button" class="button" onClick={() => void copy(current())}>Copy reference</button>
                </Show>
                <Show when={props.transcriptHref?.(current())}>
                  {(href) => <a class="button button-quiet" href={href()}>Open in transcript</a>}
                </Show>
              </div>
              <Show when={note()}>{(text) => <p class="lb-note" role="status">{text()}</p>}</Show>
              <p class="lb-keys muted"><kbd>←</kbd> <kbd>→</kbd> move · <kbd>Esc</kbd> close</p>
            </aside>
          </div>
        )}
      </Show>
    </dialog>
  )
}

/** Which generation made a proven image and what it was made from, as links within the gallery. */
function Lineage(props: { entry: GalleryEntry; entries: GalleryEntry[]; onIndex: (i: number) => void }): JSX.Element {
  const image = () => (props.entry.kind === 'image' && props.entry.origin === 'generated' ? props.entry : undefined)
  /** A parent is named by the image it produced, when that image is loaded. */
  const nameOf = (key: string) => props.entries.find((e): e is ImageEntry => e.kind === 'image' && e.generationKey === key)?.name ?? 'an earlier generation'
  const jump = (key: string, label: string, prefer: 'generation' | 'image') => {
    const found = byKey(props.entries, key)
    const pick = found.find((i) => props.entries[i]!.kind === prefer) ?? found[0]
    return pick !== undefined ? <button type="button" class="link-button" onClick={() => props.onIndex(pick)}>{label}</button> : <span class="muted">{label} (further back)</span>
  }
  return (
    <Show when={image()}>
      {(img) => (
        <div class="lb-lineage">
          <h3>Lineage</h3>
          <p>Made by {jump(img().generationKey!, 'its generation', 'generation')}.</p>
          <Show when={(img().parentKeys?.length ?? 0) > 0}>
            <p>From <For each={img().parentKeys}>{(key, i) => <>{i() > 0 ? ', ' : ''}{jump(key, nameOf(key), 'image')}</>}</For>.</p>
          </Show>
          <Show when={(img().otherRefs ?? 0) > 0}>
            <p class="muted">{img().otherRefs} other reference{img().otherRefs === 1 ? '' : 's'} Loupe cannot trace.</p>
          </Show>
        </div>
      )}
    </Show>
  )
}
