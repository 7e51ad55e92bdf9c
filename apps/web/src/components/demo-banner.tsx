/** Says plainly that the data on screen is generated, not the person's own history. */
export function DemoBanner() {
  return (
    <div class="demo-banner" role="note">
      <strong>Demo database.</strong> No OpenCode history was found on this machine, so Loupe generated one to look around in.
      Run <code>npm start -- --db /path/to/opencode.db</code> to open a real one.
    </div>
  )
}
