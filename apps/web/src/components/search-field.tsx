import type { JSX } from 'solid-js'

export interface SearchFieldProps {
  /** Read by screen readers: what the box searches. */
  label: string
  placeholder: string
  value: string
  onType: (text: string) => void
  ref?: (element: HTMLInputElement) => void
  class?: string
  /** After the box, inside the field: a key hint or a clear button. */
  children?: JSX.Element
}

/** The magnifier of search boxes and of the search page's empty states. */
export const SearchGlyph = (props: { class?: string }) => (
  <svg viewBox="0 0 16 16" aria-hidden="true" class={props.class ?? 'search-icon'}>
    <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" stroke-width="1.5" />
    <path d="M10.5 10.5l3 3" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" />
  </svg>
)

/** A search box with its icon: Esc clears it, and once empty leaves it. */
export function SearchField(props: SearchFieldProps) {
  return (
    <label class={`search-field ${props.class ?? ''}`}>
      <span class="visually-hidden">{props.label}</span>
      <SearchGlyph />
      <input
        ref={(el) => props.ref?.(el)}
        type="search"
        placeholder={props.placeholder}
        value={props.value}
        autocomplete="off"
        spellcheck={false}
        onInput={(e) => props.onType(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return
          e.preventDefault()
          if (e.currentTarget.value) props.onType('')
          else e.currentTarget.blur()
        }}
      />
      {props.children}
    </label>
  )
}
