import { For, Show } from 'solid-js'
import { formatCount } from '../../lib/format'
import type { Project } from '../sessions/sessions.data'
import { KIND_LABELS } from './hit-model'
import type { SearchKind } from './search.data'

export const KINDS: SearchKind[] = ['text', 'reasoning', 'tool', 'user', 'title']
/** OpenCode's built-in tools (1.x and 2.x names): offered until the index says which tools history holds. */
const BUILT_IN_TOOLS = ['bash', 'shell', 'read', 'edit', 'write', 'patch', 'grep', 'glob', 'task', 'subagent', 'todowrite', 'webfetch', 'websearch', 'skill']

export interface ToolCount {
  name: string
  docs: number
}

/**
 * The tool menu: history's own tools, most used first, or the built-in ones; the current filter always.
 * A count beside the name read as the number of results ("bash (155)", then 0 hits for the query), so
 * the calls in all history are only a hint on hover.
 */
export function toolOptions(tools: ToolCount[] | null, current: string | undefined): Array<{ value: string; label: string; hint?: string }> {
  const options: Array<{ value: string; label: string; hint?: string }> = tools
    ? tools.map((t) => ({ value: t.name, label: t.name, hint: `${formatCount(t.docs)} ${t.docs === 1 ? 'call' : 'calls'} in all history` }))
    : BUILT_IN_TOOLS.map((name) => ({ value: name, label: name }))
  return current && !options.some((o) => o.value === current) ? [{ value: current, label: current }, ...options] : options
}
export const PERIODS = { day: ['Past day', 86_400_000], week: ['Past week', 7 * 86_400_000], month: ['Past month', 30 * 86_400_000], year: ['Past year', 365 * 86_400_000] } as const
export type Period = keyof typeof PERIODS
export const isPeriod = (value: unknown): value is Period => typeof value === 'string' && value in PERIODS

export interface SearchFiltersProps {
  kinds: SearchKind[]
  tool: string | undefined
  /** The tools history holds calls of, most used first; null until the index is ready. */
  tools: ToolCount[] | null
  projectID: string | undefined
  projects: Project[]
  period: Period | undefined
  view: 'sessions' | 'flat'
  onKinds: (kinds: SearchKind[]) => void
  onTool: (tool: string | undefined) => void
  onProject: (projectID: string | undefined) => void
  onPeriod: (period: Period | undefined) => void
  onView: (view: 'sessions' | 'flat') => void
}

/** Scope of a search: kinds (none pressed = all), tool, project, period, and how results are laid out. */
export function SearchFilters(props: SearchFiltersProps) {
  const toggle = (kind: SearchKind) =>
    props.onKinds(props.kinds.includes(kind) ? props.kinds.filter((k) => k !== kind) : KINDS.filter((k) => k === kind || props.kinds.includes(k)))
  return (
    <div class="filters search-filters">
      <div class="segmented" role="group" aria-label="Kinds">
        <For each={KINDS}>
          {(kind) => (
            <button type="button" class={`segment kind-${kind}`} aria-pressed={props.kinds.includes(kind)} onClick={() => toggle(kind)}>
              {KIND_LABELS[kind]}
            </button>
          )}
        </For>
      </div>
      <label class="select-field">
        <span class="visually-hidden">Tool</span>
        <select onChange={(e) => props.onTool(e.currentTarget.value || undefined)}>
          <option value="" selected={!props.tool}>Any tool</option>
          <For each={toolOptions(props.tools, props.tool)}>
            {(tool) => <option value={tool.value} title={tool.hint} selected={tool.value === props.tool}>{tool.label}</option>}
          </For>
        </select>
      </label>
      <label class="select-field">
        <span class="visually-hidden">Project</span>
        <select onChange={(e) => props.onProject(e.currentTarget.value || undefined)}>
          <option value="" selected={!props.projectID}>All projects</option>
          {/* A link's project that this history does not have: the menu says so rather than "All projects". */}
          <Show when={props.projectID && props.projects.length > 0 && !props.projects.some((p) => p.id === props.projectID)}>
            <option value={props.projectID} selected>Unknown project</option>
          </Show>
          <For each={props.projects}>
            {(project) => <option value={project.id} selected={project.id === props.projectID}>{project.name}</option>}
          </For>
        </select>
      </label>
      <label class="select-field select-narrow">
        <span class="visually-hidden">When</span>
        <select onChange={(e) => props.onPeriod(isPeriod(e.currentTarget.value) ? e.currentTarget.value : undefined)}>
          <option value="" selected={!props.period}>Any time</option>
          <For each={Object.entries(PERIODS) as Array<[Period, readonly [string, number]]>}>
            {([key, [label]]) => <option value={key} selected={key === props.period}>{label}</option>}
          </For>
        </select>
      </label>
      <div class="segmented view-toggle" role="group" aria-label="Layout">
        <button type="button" class="segment" aria-pressed={props.view === 'sessions'} onClick={() => props.onView('sessions')}>By session</button>
        <button type="button" class="segment" aria-pressed={props.view === 'flat'} onClick={() => props.onView('flat')}>Flat</button>
      </div>
      <Show when={props.kinds.length > 0 || props.tool || props.projectID || props.period}>
        <button
          type="button"
          class="link-button"
          onClick={() => {
            props.onKinds([])
            props.onTool(undefined)
            props.onProject(undefined)
            props.onPeriod(undefined)
          }}
        >
          Reset filters
        </button>
      </Show>
    </div>
  )
}
