/** A path whose folder gives way before its file name does when the line is short (390 px phones). */
export function FilePath(props: { path: string; fallback: string }) {
  const cut = () => props.path.lastIndexOf('/') + 1
  return (
    <span class="tool-file-path" title={props.path}>
      <span class="tool-file-dir">{props.path.slice(0, cut())}</span>
      <span class="tool-file-base">{props.path.slice(cut()) || props.fallback}</span>
    </span>
  )
}
