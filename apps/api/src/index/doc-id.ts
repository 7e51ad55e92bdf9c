/**
 * Document ids put the newest documents first: id = ID_MIRROR − (time_ms × 4096 + slot). Ranked
 * searches want the newest matches (the candidate cap keeps them), and FTS5 walks a doclist
 * forwards faster than backwards (bench/README.md has the figures). `since`/`until` and a
 * cursor's horizon stay id ranges.
 *
 * The recency key (time × 4096 + slot) is what the writer allocates: slots count up within a
 * millisecond, so the mirror keeps "later" as "newer" there too.
 */
export const SLOTS = 4096
// One below the largest safe integer: that one is left to NO_DOC_ID.
const ID_MIRROR = Number.MAX_SAFE_INTEGER - 1
/** The last millisecond an id can hold (September 2039); later times share it. */
export const MAX_ID_TIME = Math.floor(ID_MIRROR / SLOTS) - 2
/** The highest bucket (a millisecond's first key) whose every key still has an id ≥ 0: one past MAX_ID_TIME, for spills. */
export const LAST_KEY_BASE = (MAX_ID_TIME + 1) * SLOTS

/** A time's first recency key (slot 0), clamped to what ids can hold. */
export const keyBase = (ms: number) => Math.min(MAX_ID_TIME, Math.max(0, Math.floor(ms))) * SLOTS

export const idOfKey = (key: number) => ID_MIRROR - key
export const keyOfId = (id: number) => ID_MIRROR - id

/** The smallest id a document of millisecond `ms` can have: its last slot. */
export const newestIdAt = (ms: number) => idOfKey(keyBase(ms) + SLOTS - 1)
/** The largest id a document of millisecond `ms` can have: its first slot. */
export const oldestIdAt = (ms: number) => idOfKey(keyBase(ms))

/** The id no document reaches: the horizon of an empty index, which shows nothing. */
export const NO_DOC_ID = Number.MAX_SAFE_INTEGER
