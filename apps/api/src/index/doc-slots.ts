import type { SqliteDb } from '../lib/sqlite.js'
import { idOfKey, keyBase, keyOfId, LAST_KEY_BASE, SLOTS } from './doc-id.js'

/**
 * Hands out document ids (doc-id.ts): the next free recency key per millisecond bucket, known
 * from one query per bucket and valid inside one write transaction (`begin` forgets them).
 */
export function createSlotAllocator(db: SqliteDb) {
  const nextSlot = new Map<number, number>()

  /** Find the next free slot of each bucket (a millisecond's first key) not yet known in this transaction, in one query. */
  function lookUp(keyBases: readonly number[]) {
    const bases = [...new Set(keyBases)].filter((b) => !nextSlot.has(b))
    if (bases.length === 0) return
    // A bucket's keys base..base+4095 are ids idOfKey(base)-4095..idOfKey(base): its newest is the smallest id.
    const rows = db.rowsSql<[number, number | null]>(
      `SELECT value, (SELECT min(id) FROM doc WHERE id <= ${idOfKey(0)} - value AND id > ${idOfKey(0)} - value - ${SLOTS}) FROM json_each(?)`, [JSON.stringify(bases)])
    for (const [base, min] of rows) nextSlot.set(base, min === null ? base : keyOfId(min) + 1)
  }

  return {
    begin: () => nextSlot.clear(),
    /**
     * Look up the free slots of these times' milliseconds in one query, not one per document
     * (a build batch's documents rarely share a millisecond).
     */
    reserve: (times: readonly number[]) => lookUp(times.map(keyBase)),
    /**
     * The next free id of `time`'s millisecond; a full one (4,096 documents) spills into the next,
     * or, past the last bucket ids can hold (times clamped at 2039, bogus future stamps), the previous.
     */
    allocate(time: number): number {
      const start = keyBase(time)
      for (let base = start, step = SLOTS; ; base += step) {
        if (base > LAST_KEY_BASE) {
          step = -SLOTS
          base = start
          continue
        }
        if (base < 0) throw new Error('no free search document id left')
        if (!nextSlot.has(base)) lookUp([base])
        const next = nextSlot.get(base)!
        if (next < base + SLOTS) {
          nextSlot.set(base, next + 1)
          return idOfKey(next)
        }
      }
    },
  }
}
