import { For, Show } from 'solid-js'
import { SearchField } from '../../components/search-field'
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
      <SearchField label="Filter sessions by title" placeholder="Filter by title…" value={props.search} onType={props.onSearch} ref={props.ref}>
        <Show when={props.search} fallback={<kbd class="search-kbd">f</kbd>}>
          <button type="button" class="icon-button search-clear" aria-label="Clear the filter" onClick={() => props.onSearch('')}>
            ×
          </button>
        </Show>
      </SearchField>
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
