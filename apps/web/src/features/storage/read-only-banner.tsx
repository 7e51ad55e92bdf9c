import { For, Show } from 'solid-js'
import { plural } from '../../lib/format'
import type { RouterOutputs } from '../../lib/trpc'

type Info = RouterOutputs['storage']['info']

export interface ReadOnlyBannerProps {
  supported: Info['supported']
  migrations: Pick<Info['migrations'], 'unknown'>
}

/**
 * Why Loupe will not change this file. A migration newer than Loupe's list (the probe opens such a
 * file read-only, issue 26) is named first, since it is the usual reason and the fix is a newer Loupe.
 */
export function ReadOnlyBanner(props: ReadOnlyBannerProps) {
  const unknown = () => props.migrations.unknown
  // The probe's own line for the migrations says the same as the sentence above it.
  const others = () => props.supported.reasons.filter((r) => !unknown().some((id) => r.includes(id)))
  return (
    <Show when={!props.supported.read || !props.supported.write}>
      <div class="banner banner-warn read-only-banner" role="note">
        <Show
          when={unknown().length > 0}
          fallback={<><strong>{props.supported.read ? 'Read-only.' : 'Not readable.'}</strong> {others().join('; ') || 'Loupe will not change this file.'}</>}
        >
          <p>
            <strong>Opened {props.supported.read ? 'read-only' : 'without reading'}:</strong> this file has{' '}
            {unknown().length === 1 ? 'migration' : plural(unknown().length, 'migration')}{' '}
            <For each={unknown()}>{(id, i) => <>{i() > 0 ? ', ' : ''}<code>{id}</code></>}</For>, newer than Loupe knows.
            Loupe shows what it can and changes nothing until it knows that storage layout.
          </p>
          <Show when={others().length > 0}><p class="muted">Also: {others().join('; ')}.</p></Show>
        </Show>
      </div>
    </Show>
  )
}
