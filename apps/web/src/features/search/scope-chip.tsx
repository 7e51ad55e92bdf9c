/** The search is scoped to one session: says which, and its × searches everywhere again. */
export function ScopeChip(props: { label: string; onClear: () => void }) {
  return (
    <div class="scope-chip">
      <span>{props.label}</span>
      <button type="button" class="icon-button" aria-label="Search everywhere" onClick={() => props.onClear()}>×</button>
    </div>
  )
}
