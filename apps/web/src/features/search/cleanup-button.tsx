export interface CleanupButtonProps {
  /** False when Loupe does not write to this database. */
  writable: boolean
  /** The results on screen are not yet those of the box's text: a clean-up now would plan the old ones. */
  waiting: boolean
  onClick: () => void
}

/** "Clean up matching…": offered with a search's results, enabled once they are this search's own. */
export function CleanupButton(props: CleanupButtonProps) {
  const title = () => {
    if (!props.writable) return 'Loupe does not write to this database (see Storage)'
    return props.waiting ? 'Waiting for the results of this search' : 'Remove the tool calls and reasoning of the finished messages behind these results'
  }
  return (
    <button type="button" class="button cleanup-button" disabled={!props.writable || props.waiting} title={title()} onClick={() => props.onClick()}>
      Clean up matching…
    </button>
  )
}
