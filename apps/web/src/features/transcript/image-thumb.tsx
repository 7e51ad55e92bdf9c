import { createSignal, Show } from 'solid-js'
import { Modal } from '../../components/modal'
import { formatBytes } from '../../lib/format'
import type { ImageView } from './message-model'

const baseName = (name: string) => name.split('/').filter(Boolean).at(-1) ?? name

/** A small thumbnail of an inline image; a click opens it full size. */
export function ImageThumb(props: { image: ImageView }) {
  const [open, setOpen] = createSignal(false)
  const label = () => props.image.name ? baseName(props.image.name) : props.image.mime
  return (
    <>
      <button type="button" class="thumb" title={`${props.image.name ?? 'image'} · ${formatBytes(props.image.bytes)}`} onClick={() => setOpen(true)}>
        <img src={props.image.src} alt={label()} loading="lazy" decoding="async" />
        <span class="thumb-caption">
          <span class="thumb-name">{label()}</span>
          <span class="thumb-size">{formatBytes(props.image.bytes)}</span>
        </span>
      </button>
      <Show when={open()}>
        <Modal label={label()} onClose={() => setOpen(false)} class="lightbox">
          <figure>
            <img src={props.image.src} alt={label()} />
            <figcaption>
              {props.image.name ?? label()} · {props.image.mime} · {formatBytes(props.image.bytes)}
            </figcaption>
          </figure>
        </Modal>
      </Show>
    </>
  )
}
