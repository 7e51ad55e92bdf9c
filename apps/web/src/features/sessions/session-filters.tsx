import { For, Show } from 'solid-js'
import type { Project } from './sessions.data'

export interface SessionFiltersProps {
  search: string
  projectID: string | undefined
  projects: Project[]
  showSubagents: boolean
  showArchived: boolean
  onSearch: (text: string) => void
  onProject: (projectID: string | undefined) => void
  onShowSubagents: (show: boolean) => void
  onShowArchived: (show: boolean) => void
  ref?: (input: HTMLInputElement) => void
}

/** Search-as-you-type over titles, the project filter and two visibility toggles. */
export function SessionFilters(props: SessionFiltersProps) {
  return (
    <div class="filters" role="search">
      <label class="search-field">
        <span class="visually-hidden">Filter sessions by title</span>
        <svg viewBox="0 0 16 16" aria-hidden="true" class="search-icon">
          <circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" stroke-width="1.5" />
          <path d="M10.5 10.5l3 3" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" />
        </svg>
        <input
          ref={(el) => props.ref?.(el)}
          type="search"
          placeholder="Filter by title…"
          value={props.search}
          autocomplete="off"
          spellcheck={false}
          onInput={(event) => props.onSearch(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault()
              if (event.currentTarget.value) props.onSearch('')
              else event.currentTarget.blur()
            }
          }}
        />
        <Show when={props.search} fallback={<kbd class="search-kbd">f</kbd>}>
          <button type="button" class="icon-button search-clear" aria-label="Clear the filter" onClick={() => props.onSearch('')}>
            ×
          </button>
        </Show>
      </label>
      <label class="select-field">
        <span class="visually-hidden">Project</span>
        <select onChange={(event) => props.onProject(event.currentTarget.value || undefined)}>
          <option value="" selected={!props.projectID}>All projects</option>
          <For each={props.projects}>
            {(project) => (
              <option value={project.id} selected={project.id === props.projectID}>
                {project.name} ({project.sessions})
              </option>
            )}
          </For>
        </select>
      </label>
      <label class="toggle">
        <input type="checkbox" checked={props.showSubagents} onChange={(event) => props.onShowSubagents(event.currentTarget.checked)} />
        Subagents
      </label>
      <label class="toggle">
        <input type="checkbox" checked={props.showArchived} onChange={(event) => props.onShowArchived(event.currentTarget.checked)} />
        Archived
      </label>
    </div>
  )
}
