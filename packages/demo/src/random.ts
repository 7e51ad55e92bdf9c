/** A seeded pseudo-random source: the demo must be identical for the same seed and `now`. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number
  pick<T>(items: readonly T[]): T
  chance(probability: number): boolean
  /** Log-uniform in [min, max): most draws small, a long tail of large ones. */
  logUniform(min: number, max: number): number
  /** `n` characters of [0-9A-Za-z], as OpenCode's id suffixes. */
  base62(n: number): string
  hex(n: number): string
  /** A child source, so adding draws in one place does not shift every later draw. */
  fork(): Random
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const HEX = '0123456789abcdef'

/** sfc32 seeded through splitmix32: fast, 128 bits of state, good enough for fake data. */
export function createRandom(seed: number): Random {
  let s = seed >>> 0
  const splitmix = () => {
    s = (s + 0x9e3779b9) >>> 0
    let z = s
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return (z ^ (z >>> 16)) >>> 0
  }
  let a = splitmix()
  let b = splitmix()
  let c = splitmix()
  let d = splitmix()
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0
    d = (d + 1) >>> 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) >>> 0
    c = ((c << 21) | (c >>> 11)) >>> 0
    c = (c + t) >>> 0
    return t / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  // Several characters per 32-bit draw: ids are drawn about a million times for a big file.
  const chars = (alphabet: string, perDraw: number, n: number) => {
    let out = ''
    while (out.length < n) {
      let x = Math.floor(next() * 4294967296)
      for (let k = 0; k < perDraw && out.length < n; k++) {
        out += alphabet[x % alphabet.length]
        x = Math.floor(x / alphabet.length)
      }
    }
    return out
  }
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new Error('pick from an empty list')
      return items[Math.floor(next() * items.length)] as T
    },
    chance: (probability) => next() < probability,
    logUniform: (min, max) => Math.exp(Math.log(min) + next() * (Math.log(max) - Math.log(min))),
    base62: (n) => chars(BASE62, 5, n),
    hex: (n) => chars(HEX, 8, n),
    fork: () => createRandom(Math.floor(next() * 4294967296)),
  }
}
