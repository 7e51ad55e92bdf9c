// Where another process's resident memory is, from /proc/<pid>/smaps (Linux, glibc): the mappings
// grouped by what made them. Anonymous mappings carry no owner, so two groups go by shape: glibc
// reserves each thread arena as a 64 MiB-aligned 64 MiB region, and V8 maps its heap in 256 KiB
// pages at 256 KiB boundaries. Both are how those allocators work today, not guarantees.
import fs from 'node:fs'

export interface MemoryParts {
  /** File-backed pages: the node binary, shared libraries, native addons. */
  fileKb: number
  /** glibc's main arena (`[heap]`): the main thread's malloc (SQLite's page caches), and any thread's once the arenas are all taken. */
  mainHeapKb: number
  /** glibc's other arenas (at most one more with the launchers' `MALLOC_ARENA_MAX=2`): threads' mallocs, what they freed. */
  arenasKb: number
  /** V8's heap pages, every thread's. */
  v8Kb: number
  /** Any other anonymous memory: stacks, large mallocs in their own mappings, V8's code range. */
  otherKb: number
}

const ARENA = 64 * 1024 * 1024
const V8_PAGE = 256 * 1024

interface Mapping { start: number; sizeKb: number; perm: string; path: string; rssKb: number; anonKb: number }

function readMappings(pid: number): Mapping[] | null {
  let text: string
  try {
    text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8')
  } catch {
    return null
  }
  const maps: Mapping[] = []
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (head) {
      const start = parseInt(head[1]!, 16)
      maps.push({ start, sizeKb: (parseInt(head[2]!, 16) - start) / 1024, perm: head[3]!, path: head[4]!.trim(), rssKb: 0, anonKb: 0 })
      continue
    }
    const last = maps.at(-1)
    const field = /^(Rss|Anonymous):\s+(\d+) kB/.exec(line)
    if (last && field) last[field[1] === 'Rss' ? 'rssKb' : 'anonKb'] = Number(field[2])
  }
  return maps
}

/** The process's resident memory by group, or null when its smaps cannot be read. */
export function readMemoryParts(pid: number): MemoryParts | null {
  const maps = readMappings(pid)
  if (!maps) return null
  const parts: MemoryParts = { fileKb: 0, mainHeapKb: 0, arenasKb: 0, v8Kb: 0, otherKb: 0 }
  maps.forEach((m, i) => {
    if (m.path === '[heap]') parts.mainHeapKb += m.anonKb
    else if (m.path && !m.path.startsWith('[')) parts.fileKb += m.rssKb
    else if (m.path) parts.otherKb += m.anonKb
    else if (isArena(m, maps[i + 1])) parts.arenasKb += m.anonKb
    else if (m.start % V8_PAGE === 0 && (m.sizeKb * 1024) % V8_PAGE === 0) parts.v8Kb += m.anonKb
    else parts.otherKb += m.anonKb
  })
  return parts
}

/** An arena's used part, followed by the rest of its 64 MiB reservation (no access) when not all used. */
function isArena(m: Mapping, next: Mapping | undefined): boolean {
  if (m.start % ARENA !== 0 || m.perm !== 'rw-p') return false
  const reserved = next && next.perm === '---p' && !next.path && next.start === m.start + m.sizeKb * 1024 ? next.sizeKb : 0
  return (m.sizeKb + reserved) * 1024 === ARENA
}
