import { A } from '@solidjs/router'
import { Show } from 'solid-js'
import type { StorageInfo } from '../features/storage/storage.data'
import { formatBytes } from '../lib/format'

export interface AppHeaderProps {
  info: StorageInfo | undefined
  /** The last search, query and filters included: the Search link reopens it. */
  searchHref: string
  onSearch: () => void
  onHelp: () => void
}

const fileName = (path: string) => path.split(/[\\/]/).filter(Boolean).at(-1) ?? path

/** The top bar: the mark, the two places, and which database is open. */
export function AppHeader(props: AppHeaderProps) {
  return (
    <header class="topbar">
      <A href="/sessions" class="brand" aria-label="Loupe home">
        <img src="/favicon.svg" alt="" width="20" height="20" />
        <span>Loupe</span>
      </A>
      <nav class="topnav" aria-label="Main">
        <A href="/overview" activeClass="active">Overview</A>
        <A href="/sessions" activeClass="active">Sessions</A>
        <A href={props.searchHref} activeClass="active" onClick={(e) => {
          // A link opened in another tab or window leaves this page's search box alone.
          if (!(e.ctrlKey || e.metaKey || e.shiftKey || e.altKey)) props.onSearch()
        }}>
          Search <kbd>/</kbd>
        </A>
        <A href="/storage" activeClass="active">Storage</A>
      </nav>
      <div class="topbar-spacer" />
      <Show when={props.info}>
        {(info) => (
          <A href="/storage" class="db-chip" title={info().path}>
            <span class="db-dot" classList={{ demo: info().demo, readonly: !info().supported.write }} aria-hidden="true" />
            <span class="db-name">{fileName(info().path)}</span>
            <span class="db-size">{formatBytes(info().sizeBytes + info().walBytes)}</span>
          </A>
        )}
      </Show>
      <button type="button" class="icon-button help-button" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)" onClick={() => props.onHelp()}>
        ?
      </button>
    </header>
  )
}
