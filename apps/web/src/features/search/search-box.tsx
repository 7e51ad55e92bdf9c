export interface SearchBoxProps {
  value: string
  ref: (element: HTMLInputElement) => void
  onType: (text: string) => void
}

/** The query box: Esc clears it, and once empty leaves it. */
export function SearchBox(props: SearchBoxProps) {
  return (
    <label class="search-field search-main">
      <span class="visually-hidden">Search all history</span>
      <svg viewBox="0 0 16 16" aria-hidden="true" class="search-icon">
        <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" stroke-width="1.5" />
        <path d="M10.5 10.5l3 3" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" />
      </svg>
      <input
        ref={props.ref}
        type="search"
        placeholder='Search all history: words, "exact phrase", -exclude, prefix*'
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
    </label>
  )
}
