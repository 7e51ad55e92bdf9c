import type { Random } from './random.js'

/**
 * OpenCode ids (opencode-storage.md §5): prefix, 12 hex digits of the low 48 bits of
 * `ms * 4096 + counter`, then 14 base62 characters. The counter restarts at 1 in each new
 * millisecond and is shared by every prefix. `ses_` ids invert the 48 bits, so newer sessions
 * sort first; `msg_`, `prt_` and `evt_` ids ascend with time.
 */
export interface IdSource {
  ascending(prefix: 'msg' | 'prt' | 'evt', ms: number): string
  descending(prefix: 'ses', ms: number): string
}

const LOW_36_BITS = 2 ** 36
const MAX_48_BITS = 2 ** 48 - 1

export function createIdSource(random: Random): IdSource {
  let lastMs = 0
  let counter = 0
  const timeBits = (ms: number) => {
    if (ms < lastMs) throw new Error(`id time went backwards: ${ms} < ${lastMs}`)
    if (ms !== lastMs) {
      lastMs = ms
      counter = 0
    }
    counter++
    // (ms mod 2^36) * 4096 + counter is the low 48 bits and stays within 2^53.
    return (ms % LOW_36_BITS) * 4096 + counter
  }
  const format = (prefix: string, bits: number) => `${prefix}_${bits.toString(16).padStart(12, '0')}${random.base62(14)}`
  return {
    ascending: (prefix, ms) => format(prefix, timeBits(ms)),
    descending: (prefix, ms) => format(prefix, MAX_48_BITS - timeBits(ms)),
  }
}

/** The millisecond an OpenCode id encodes (its counter dropped); descending ids decoded as such. */
export function decodeIdTime(id: string, nowMs: number): number {
  const hex = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 13)
  let bits = parseInt(hex, 16)
  if (id.startsWith('ses_')) bits = MAX_48_BITS - bits
  const low = Math.floor(bits / 4096)
  // Restore the bits above 2^36 ms from a reference time in the same era.
  const high = nowMs - (nowMs % LOW_36_BITS)
  const candidate = high + low
  return candidate > nowMs + LOW_36_BITS / 2 ? candidate - LOW_36_BITS : candidate
}
