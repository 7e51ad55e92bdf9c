import { createSignal, For, Show } from 'solid-js'
import { ErrorPanel } from '../../components/error-panel'
import { Modal } from '../../components/modal'
import { useApi } from '../../lib/api-context'
import { formatAbsoluteTime, formatRelativeTime } from '../../lib/format'
import { QrCode } from './qr-code'
import { createShares, EXPIRIES, type CreatedShare, type ShareView } from './shares.data'

const STATUS_TEXT: Record<ShareView['status'], string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' }

function expiresText(share: ShareView, now: number): string {
  if (share.status === 'revoked') return `revoked ${formatRelativeTime(share.revokedAt ?? now, now)}`
  if (share.status === 'expired') return `expired ${formatRelativeTime(share.expiresAt, now)}`
  const hours = Math.round((share.expiresAt - now) / 3_600_000)
  return hours < 1 ? 'expires within the hour' : hours < 48 ? `expires in ${hours} h` : `expires in ${Math.round(hours / 24)} days`
}

/**
 * Share a session's gallery on the local network: pick an expiry, get a link and its QR code. The
 * link opens the images only; it can be revoked here at any time.
 */
export function ShareDialog(props: { session: { sessionID: string; storage: 'v1' | 'v2' }; onClose: () => void }) {
  const shares = createShares(useApi(), () => props.session)
  const [expiresIn, setExpiresIn] = createSignal<number>(EXPIRIES[1].seconds)
  const [created, setCreated] = createSignal<CreatedShare>()
  const [error, setError] = createSignal<unknown>()
  const [busy, setBusy] = createSignal(false)
  const [copied, setCopied] = createSignal(false)
  const now = Date.now()

  const create = async () => {
    setBusy(true)
    setError(undefined)
    try {
      setCreated(await shares.create(expiresIn()))
      setCopied(false)
    } catch (caught) {
      setError(caught)
    } finally {
      setBusy(false)
    }
  }
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
    } catch {
      setCopied(false)
    }
  }

  return (
    <Modal label="Share this gallery" onClose={props.onClose} class="share-dialog">
      <h2>Share this gallery</h2>
      <p class="muted">
        Anyone with the link can page through this session’s images and download them, from any device on your network, without
        signing in. They see nothing else: no transcript, no other session.
      </p>
      <div class="share-create">
        <fieldset class="segmented" aria-label="Link expires after">
          <legend class="visually-hidden">Link expires after</legend>
          <For each={EXPIRIES}>
            {(choice) => (
              <label classList={{ active: expiresIn() === choice.seconds }}>
                <input type="radio" name="expiry" value={choice.seconds} checked={expiresIn() === choice.seconds} onChange={() => setExpiresIn(choice.seconds)} />
                {choice.label}
              </label>
            )}
          </For>
        </fieldset>
        <button type="button" class="button button-primary" disabled={busy()} onClick={() => void create()}>
          {created() ? 'Create another link' : 'Create link'}
        </button>
      </div>
      <Show when={shares.list.data()?.reach.reachable === false && !created()}>
        <p class="banner banner-warn share-loopback">
          Loupe is listening on this computer only ({shares.list.data()?.reach.host}), so a link made now opens here but not on a
          phone or another computer. To share on your network, restart Loupe with <code class="code-unbroken">npm start -- --host 0.0.0.0</code> first.
        </p>
      </Show>
      <Show when={error()}>{(e) => <ErrorPanel error={e()} compact />}</Show>
      <Show when={created()}>
        {(link) => (
          <div class="share-result">
            {/* A loopback URL in a QR code would send a phone to itself. */}
            <Show when={link().reachable}>
              <QrCode text={link().url} />
            </Show>
            <div class="share-result-text">
              <div class="share-url">
                <input readonly aria-label="Share link" value={link().url} onFocus={(event) => event.currentTarget.select()} />
                <button type="button" class="button" onClick={() => void copy(link().url)}>{copied() ? 'Copied' : 'Copy'}</button>
              </div>
              <Show
                when={link().reachable}
                fallback={
                  <p class="banner banner-warn">
                    Loupe is listening on this computer only ({link().host}), so this link opens here but not on a phone or another
                    computer. To share on your network, restart Loupe with <code class="code-unbroken">npm start -- --host 0.0.0.0</code> and create a new link.
                  </p>
                }
              >
                <p class="muted">Open it on a device on the same network, or scan the code with a phone.</p>
                <Show when={link().urls.length > 1}>
                  <p class="muted">Other addresses of this computer: <For each={link().urls.slice(1)}>{(u, i) => <>{i() > 0 ? ', ' : ''}<code>{u}</code></>}</For></p>
                </Show>
              </Show>
              <p class="muted">Expires {formatAbsoluteTime(link().share.expiresAt)}. Loupe keeps only a fingerprint of the link, so copy it now.</p>
            </div>
          </div>
        )}
      </Show>
      <Show when={(shares.list.data()?.shares.length ?? 0) > 0}>
        <h3 class="share-list-title">Links to this gallery</h3>
        <ul class="share-list">
          <For each={shares.list.data()?.shares}>
            {(share) => (
              <li class="share-row" data-status={share.status}>
                <code>…/s/…{share.hint}</code>
                <span class={`badge badge-${share.status === 'active' ? 'completed' : 'error'}`}>{STATUS_TEXT[share.status]}</span>
                <span class="muted">created {formatRelativeTime(share.createdAt, now)}, {expiresText(share, now)}</span>
                <Show when={share.status === 'active'}>
                  <button type="button" class="link-button share-revoke" onClick={() => void shares.revoke(share.id)}>Revoke</button>
                </Show>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </Modal>
  )
}
