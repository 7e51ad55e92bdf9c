// How Loupe's own launchers start the long-running server: `npm start` (scripts/start.mjs), the
// tests' and benches' server (tools/loupe-server.mjs) and the Docker image (its ENV and CMD repeat
// these; apps/api/test/server-launch.test.ts checks that they agree). An installed package's `loupe serve` runs
// in the bin's own process and has neither: a second process to set them would cost more than they save.

/**
 * The server's environment on top of the caller's, read by glibc when the process starts (other C
 * libraries ignore both).
 * - glibc raises its mmap threshold (up to 32 MB) each time a large block is freed, after which
 *   such blocks come from the heap and are never returned to the system; the index build's threads
 *   then leave their freed memory in the process for good. A fixed threshold keeps large
 *   blocks in their own mappings, given back when freed.
 * - glibc gives threads that allocate at the same time arenas of their own (up to eight per core),
 *   and memory freed in an arena stays there: each worker that ended (the build's, a storage
 *   job's) and libvips' threads left their arena's freed memory behind. Two
 *   arenas for the whole process keep that memory where the next thread's allocations reuse it.
 * Both measured in bench/README.md.
 */
export const SERVER_ENV = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' }

/**
 * Node's flags before the entry point. V8 lets the main thread's young generation grow to 48 MB,
 * and loading the server's modules grows it to mostly empty new space that stays until V8's memory
 * reducer runs, while the index build runs beside it; a compaction on this thread grows it again,
 * and a collection after the job keeps the grown new space. A 4 MB semi-space keeps most of that
 * back, and compaction on this thread took no more CPU with it (bench/README.md). V8 sizes the
 * young generation when the thread starts, so this one is a flag, which the server clears once
 * started so that its workers keep their own; the heap settings V8 reads later the server sets
 * itself (apps/api/src/lib/server-heap.ts), for an installed `loupe serve` too.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4']

/** The server's entry point in the api's JavaScript build, relative to the repository root. */
export const SERVER_ENTRY = 'apps/api/dist/main.mjs'
