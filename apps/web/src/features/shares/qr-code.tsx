import qrcode from 'qrcode-generator'
import { createMemo } from 'solid-js'

/** A QR code of `text` as an SVG path (no innerHTML), for opening a share link on a phone. */
export function QrCode(props: { text: string; size?: number }) {
  const model = createMemo(() => {
    const qr = qrcode(0, 'M')
    qr.addData(props.text)
    qr.make()
    const n = qr.getModuleCount()
    let d = ''
    for (let row = 0; row < n; row++) for (let col = 0; col < n; col++) if (qr.isDark(row, col)) d += `M${col + 2} ${row + 2}h1v1h-1z`
    return { n: n + 4, d }
  })
  return (
    <svg class="qr-code" role="img" aria-label="QR code of the share link" viewBox={`0 0 ${model().n} ${model().n}`} width={props.size ?? 168} height={props.size ?? 168} shape-rendering="crispEdges">
      <rect width="100%" height="100%" fill="#fff" />
      <path d={model().d} fill="#000" />
    </svg>
  )
}
