import { createEffect, createSignal, Match, Show, Switch } from 'solid-js'
import { GalleryGrid } from '../features/gallery/gallery-grid'
import { createGalleryFeed, type FeedPage, type GalleryEntry } from '../features/gallery/gallery.data'
import { Lightbox } from '../features/gallery/lightbox'

interface ShareMeta {
  title: string | null
  expiresAt: number
}

/** A failed share-link request, by HTTP status (404 unknown, 410 expired or revoked, 429 too many guesses). */
export class ShareLinkError extends Error {
  constructor(readonly status: number, message: string) {
    super(message)
  }
}

function expiresIn(at: number, now = Date.now()): string {
  const hours = (at - now) / 3_600_000
  if (hours < 1) return 'expires within the hour'
  if (hours < 48) return `expires in ${Math.round(hours)} hours`
  return `expires in ${Math.round(hours / 24)} days`
}

/**
 * `/s/<token>`: a shared gallery for anyone on the network, without Loupe's own token. It talks only
 * to `/api/shared/<token>/…` (never to the owner's API) and shows images only: no transcript.
 */
export function SharedGallery(props: { token: string }) {
  const [meta, setMeta] = createSignal<ShareMeta>()
  const [open, setOpen] = createSignal<number>()
  const base = `/api/shared/${encodeURIComponent(props.token)}/images`
  const fetchPage = async (cursor: string | undefined, signal: AbortSignal): Promise<FeedPage> => {
    const res = await fetch(`${base}${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { signal })
    const body = (await res.json().catch(() => ({}))) as FeedPage & { share?: ShareMeta; message?: string }
    if (!res.ok) throw new ShareLinkError(res.status, body.message ?? `HTTP ${res.status}`)
    if (body.share) setMeta(body.share)
    return body
  }
  const feed = createGalleryFeed(() => props.token, fetchPage)
  const urls = {
    thumb: (entry: GalleryEntry, size: 256 | 1024) => `${base}/${entry.target}?size=${size}`,
    file: (entry: GalleryEntry, download: boolean) => `${base}/${entry.target}${download ? '?download=1' : ''}`,
  }
  const status = () => (feed.error() instanceof ShareLinkError ? (feed.error() as ShareLinkError).status : undefined)
  createEffect(() => {
    document.title = meta()?.title ? `${meta()!.title} · shared images` : 'Shared images · Loupe'
  })

  return (
    <div class="shared-page">
      <header class="shared-header">
        <span class="brand"><img src="/favicon.svg" alt="" width="20" height="20" /> <span>Loupe</span></span>
        <div class="shared-title">
          <h1>{meta()?.title || 'Shared images'}</h1>
          <Show when={meta()}>{(m) => <p class="muted">Read-only images from an OpenCode session · {expiresIn(m().expiresAt)}</p>}</Show>
        </div>
      </header>
      <main class="shared-main">
        <Switch>
          <Match when={status() === 410}>
            <div class="empty-state" role="status"><h2>This link no longer works</h2><p>{(feed.error() as Error).message} Ask the person who shared it for a new one.</p></div>
          </Match>
          <Match when={status() === 404}>
            <div class="empty-state" role="status"><h2>This link does not exist</h2><p>Check that the whole link was copied. Links stop working when Loupe’s owner revokes them.</p></div>
          </Match>
          <Match when={status() === 429}>
            <div class="empty-state" role="status"><h2>Too many attempts</h2><p>Too many wrong links were tried from this device. Wait a minute, then open the link again.</p></div>
          </Match>
          <Match when={feed.error()}>
            <div class="empty-state" role="alert">
              <h2>Cannot load these images</h2>
              <p>{feed.error() instanceof Error ? (feed.error() as Error).message : 'The computer sharing them may be offline.'}</p>
              <button type="button" class="button" onClick={() => feed.retry()}>Try again</button>
            </div>
          </Match>
          <Match when={true}>
            <GalleryGrid feed={feed} urls={urls} onOpen={setOpen} emptyHint="This session has no images yet." />
          </Match>
        </Switch>
      </main>
      <Show when={open() !== undefined}>
        <Lightbox feed={feed} urls={urls} index={open()!} onIndex={setOpen} onClose={() => setOpen(undefined)} />
      </Show>
    </div>
  )
}
