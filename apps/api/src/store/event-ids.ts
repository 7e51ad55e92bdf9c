import type { SqliteDb } from '../lib/sqlite.js'

const MASK = (1n << 48n) - 1n
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

const timeBits = (id: string): bigint | undefined => {
  const hex = /^evt_([0-9a-f]{12})/.exec(id)?.[1]
  return hex ? BigInt(`0x${hex}`) : undefined
}

/**
 * `count` new event ids as OpenCode makes them (opencode-storage.md §5): `evt_` + 12 hex of the low
 * 48 bits of (ms × 4096 + counter) + 14 random base62. They sort after every id already stored, so
 * the log's id order keeps following its seq order even when this clock is behind OpenCode's.
 */
export function nextEventIds(db: SqliteDb, now: number, count: number, randomBytes: (size: number) => Buffer): string[] {
  const last = db.getSql<{ id: string | null }>(`SELECT max(id) AS id FROM event`)?.id
  const fromClock = (BigInt(now) * 4096n) & MASK
  const afterLast = last ? (timeBits(last) ?? -1n) + 1n : 0n
  let bits = fromClock > afterLast ? fromClock : afterLast
  const ids: string[] = []
  for (let i = 0; i < count; i++, bits++) {
    let random = ''
    // 248 = 4 × 62: bytes below it map to base62 without bias.
    while (random.length < 14) for (const b of randomBytes(16)) if (b < 248 && random.length < 14) random += BASE62[b % 62]
    ids.push(`evt_${(bits & MASK).toString(16).padStart(12, '0')}${random}`)
  }
  return ids
}
