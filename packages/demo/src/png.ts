import zlib from 'node:zlib'
import type { Random } from './random.js'

type Rgb = readonly [number, number, number]

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 255] as number) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), 8 + data.length)
  return out
}

/** Encode a width × height 8-bit RGB PNG; `pixel(x, y)` gives the colour. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const raw = Buffer.alloc((1 + width * 3) * height)
  for (let y = 0, o = 0; y < height; y++) {
    raw[o++] = 0
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y)
      raw[o++] = r
      raw[o++] = g
      raw[o++] = b
    }
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = 2
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

export type DemoImageKind = 'screenshot' | 'chart' | 'diagram' | 'photo'

export interface DemoImage {
  kind: DemoImageKind
  name: string
  width: number
  height: number
  png: Buffer
  dataUrl: string
}

const inBox = (x: number, y: number, bx: number, by: number, w: number, h: number) => x >= bx && x < bx + w && y >= by && y < by + h

/** An app window: title bar, sidebar, text-like bars, one highlighted (the "bug"). */
function screenshot(random: Random, w: number, _h: number) {
  const accent: Rgb = random.pick([[66, 133, 244], [234, 67, 53], [52, 168, 83], [156, 39, 176]] as const)
  const dark = random.chance(0.5)
  const bg: Rgb = dark ? [30, 31, 36] : [248, 249, 251]
  const ink: Rgb = dark ? [200, 205, 214] : [60, 64, 72]
  const side = Math.floor(w * 0.22)
  const bug = random.int(3, 8)
  return (x: number, y: number): Rgb => {
    if (y < 18) return x % 40 < 12 && y > 5 && y < 12 ? accent : dark ? [44, 45, 52] : [226, 229, 235]
    if (x < side) return (y - 18) % 22 < 10 && x > 8 && x < side - 10 ? (dark ? [70, 72, 80] : [205, 209, 217]) : dark ? [37, 38, 44] : [238, 240, 244]
    const line = Math.floor((y - 24) / 16)
    const len = side + 20 + ((line * 97) % Math.max(1, w - side - 60))
    if (line === bug && inBox(x, y, side + 12, 24 + line * 16 - 3, w - side - 24, 14)) return [255, 235, 238]
    return (y - 24) % 16 < 6 && x > side + 16 && x < len ? ink : bg
  }
}

/** A bar chart with axes. */
function chart(random: Random, w: number, h: number) {
  const bars = Array.from({ length: random.int(5, 12) }, () => random.next())
  const colour: Rgb = random.pick([[66, 133, 244], [251, 140, 0], [0, 150, 136]] as const)
  const slot = (w - 40) / bars.length
  return (x: number, y: number): Rgb => {
    if (x === 30 || y === h - 20) return [40, 40, 40]
    if (x > 30 && y < h - 20) {
      const i = Math.floor((x - 31) / slot)
      const top = h - 20 - (bars[i] ?? 0) * (h - 40)
      if ((x - 31) % slot > slot * 0.2 && y >= top) return colour
      if (y % 40 === 0) return [225, 225, 225]
    }
    return [255, 255, 255]
  }
}

/** Boxes joined by a line, like an architecture sketch. */
function diagram(random: Random, w: number, h: number) {
  const n = random.int(3, 5)
  const colours: Rgb[] = [[66, 133, 244], [52, 168, 83], [234, 67, 53], [251, 188, 5], [121, 85, 72]]
  const bw = Math.floor(w / (n * 1.6))
  const bh = Math.floor(h / 3)
  const top = Math.floor((h - bh) / 2)
  return (x: number, y: number): Rgb => {
    for (let i = 0; i < n; i++) {
      const bx = Math.floor((w / n) * i + (w / n - bw) / 2)
      if (inBox(x, y, bx, top, bw, bh)) return colours[i % colours.length] as Rgb
    }
    if (Math.abs(y - h / 2) < 1.5 && x > w / (2 * n) && x < w - w / (2 * n)) return [70, 70, 70]
    return [250, 250, 246]
  }
}

/** A grainy gradient: compresses badly, so these are the big images. */
function photo(random: Random, w: number, h: number) {
  const seed = random.int(0, 1 << 30)
  return (x: number, y: number): Rgb => {
    const n = (Math.imul(x * 374761393 + y * 668265263 + seed, 1274126177) >>> 24) & 15
    return [Math.min(255, (x * 255) / w + n) | 0, Math.min(255, (y * 200) / h + n) | 0, (150 + n) & 255]
  }
}

const PAINTERS = { screenshot, chart, diagram, photo }

/** A deterministic image of the given kind; sizes vary so gallery thumbnails differ. */
export function paintDemoImage(random: Random, kind: DemoImageKind, name: string, width: number, height: number): DemoImage {
  const png = encodePng(width, height, PAINTERS[kind](random, width, height))
  return { kind, name, width, height, png, dataUrl: `data:image/png;base64,${png.toString('base64')}` }
}
