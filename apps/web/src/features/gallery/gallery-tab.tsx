import { useSearchParams } from '@solidjs/router'
import { createEffect, createSignal, Show, type JSX } from 'solid-js'
import { ErrorPanel } from '../../components/error-panel'
import { useApi } from '../../lib/api-context'
import { sessionHref } from '../../lib/links'
import { ShareDialog } from '../shares/share-dialog'
import { GalleryGrid } from './gallery-grid'
import { createGalleryFeed, ownerFetch, ownerImageUrls, REFUSALS, type GalleryEntry, type SessionRef } from './gallery.data'
import { Lightbox } from './lightbox'

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    return false
  }
}

/**
 * The Gallery tab: every image of the session, newest first, with a lightbox, references and LAN
 * share links. `?img=<target>` keeps the open image in the URL, so a view can be reloaded or sent.
 * `toolbar` is where other features put their buttons (the Images conversation).
 */
export function GalleryTab(props: { session: SessionRef; toolbar?: JSX.Element }) {
  const api = useApi()
  const [search, setSearch] = useSearchParams<{ img?: string }>()
  const feed = createGalleryFeed(() => `${props.session.storage}:${props.session.sessionID}`, (cursor, signal) => ownerFetch(api, props.session)(cursor, signal))
  const urls = {
    thumb: (entry: GalleryEntry, size: 256 | 1024) => ownerImageUrls(props.session).thumb(entry, size),
    file: (entry: GalleryEntry, download: boolean) => ownerImageUrls(props.session).file(entry, download),
  }
  const [sharing, setSharing] = createSignal(false)
  const open = () => {
    const target = search.img
    if (!target) return undefined
    const index = feed.entries().findIndex((e) => e.target === target)
    return index >= 0 ? index : undefined
  }
  // A linked image further back than the first pages: keep loading until it shows up or the gallery ends.
  createEffect(() => {
    if (search.img && open() === undefined && !feed.loading() && !feed.done() && !feed.blocked() && !feed.error()) void feed.loadMore(64)
  })

  const copyReference = async (entry: GalleryEntry): Promise<string> => {
    const answer = await api.gallery.imageReference.query({ ...props.session, target: entry.target })
    if (answer.status === 'refused') return `No reference: ${REFUSALS[answer.reason] ?? answer.reason}`
    return (await copyText(answer.path)) ? `Copied ${answer.path} (relative to the session’s directory).` : `Reference: ${answer.path}`
  }
  const transcriptHref = (entry: GalleryEntry) =>
    entry.messageID ? sessionHref({ id: props.session.sessionID, storage: props.session.storage }, { m: entry.messageID }) : undefined
  const count = () => {
    const images = feed.entries().filter((e) => e.kind === 'image').length
    const generations = feed.entries().length - images
    const more = feed.done() ? '' : ' so far'
    const parts = [`${images} image${images === 1 ? '' : 's'}`, ...(generations ? [`${generations} generation${generations === 1 ? '' : 's'}`] : [])]
    return parts.join(' · ') + more
  }

  return (
    <div class="tab-panel gallery-panel">
      <div class="gallery-toolbar">
        <span class="page-summary" aria-live="polite">{feed.entries().length > 0 || feed.done() ? count() : 'Looking for images…'}</span>
        <div class="gallery-toolbar-slot">{props.toolbar}</div>
        <button type="button" class="button" onClick={() => setSharing(true)} title="Share this gallery on your network">
          Share…
        </button>
      </div>
      <Show when={feed.error()}>{(error) => <ErrorPanel error={error()} onRetry={feed.retry} compact />}</Show>
      <GalleryGrid
        feed={feed}
        urls={urls}
        onOpen={(index) => setSearch({ img: feed.entries()[index]?.target })}
        emptyHint="No images in this session: nothing the agent read, generated or you pasted."
      />
      <Show when={open() !== undefined}>
        <Lightbox
          feed={feed}
          urls={urls}
          index={open()!}
          onIndex={(index) => setSearch({ img: feed.entries()[index]?.target }, { replace: true })}
          onClose={() => setSearch({ img: undefined })}
          copyReference={copyReference}
          transcriptHref={transcriptHref}
        />
      </Show>
      <Show when={sharing()}>
        <ShareDialog session={props.session} onClose={() => setSharing(false)} />
      </Show>
    </div>
  )
}
