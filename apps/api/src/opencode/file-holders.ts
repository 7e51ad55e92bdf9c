import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/** Other processes that have this file open; empty where that cannot be known. */
export function fileHolders(file: string, self = process.pid): number[] {
  return readFileHolders(file, self) ?? []
}

/**
 * Other processes that have this file (or its WAL) open: Linux /proc, else `lsof` when present.
 * null when neither can tell: callers that guard writes must treat that as "held".
 */
export function readFileHolders(file: string, self = process.pid): number[] | null {
  const proc = procHolders(file, self)
  if (proc) return proc
  const out = runLsof(['-t', '--', file, `${file}-wal`])
  if (out === null) return null
  return [...new Set(out.split('\n').filter((l) => /^\d+$/.test(l)).map(Number))].filter((p) => p !== self)
}

function procHolders(file: string, self: number): number[] | null {
  let pids: string[]
  try {
    pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== self)
  } catch {
    return null
  }
  if (pids.length === 0) return null
  const targets = new Set([file, `${file}-wal`])
  const owner = ownerOf(file)
  const holders: number[] = []
  for (const pid of pids) {
    const links = readLinks(Number(pid))
    // A process of the file's owner whose descriptors Loupe may not read (another user's Loupe, hidepid,
    // a container) could be OpenCode: the answer is then unknown, never "nobody holds it".
    if (links === 'denied') {
      if (owner === undefined || ownerOf(`/proc/${pid}`) === owner) return null
      continue
    }
    if (links.some((link) => targets.has(link))) holders.push(Number(pid))
  }
  return holders
}

function ownerOf(path: string): number | undefined {
  try {
    return fs.statSync(path).uid
  } catch {
    return undefined
  }
}

/** Where a process's file descriptors point (`/proc/<pid>/fd`); empty when it is gone or not ours to read. */
export function processLinks(pid: number): string[] {
  const links = readLinks(pid)
  return links === 'denied' ? [] : links
}

function readLinks(pid: number): string[] | 'denied' {
  let fds: string[]
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'EACCES' || code === 'EPERM' ? 'denied' : []
  }
  const links: string[] = []
  for (const fd of fds) {
    try {
      links.push(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))
    } catch {
      // The fd closed meanwhile.
    }
  }
  return links
}

/** `lsof`'s output, or null when it is missing or fails for another reason than "nothing found". */
export function runLsof(args: string[]): string | null {
  try {
    return execFileSync('lsof', args, { encoding: 'utf8', timeout: 5_000, stdio: ['ignore', 'pipe', 'ignore'] })
  } catch (error) {
    // lsof exits 1 when it finds nothing; it still printed (nothing) to stdout.
    const e = error as { status?: number; stdout?: string; code?: string }
    return e.status === 1 && typeof e.stdout === 'string' ? e.stdout : null
  }
}

// Loupe's own entry points, as a process's argv names them (source under tsx, a JS build, the bin).
// An installed bin runs as node_modules/.bin/loupe (npx, npm install -g) or <prefix>/bin/loupe.
const LOUPE_ENTRY = /(?:^|\/)(?:apps\/api|@loupe\/api)\/(?:src\/(?:main|mcp-main|cli\/loupe)\.ts|dist\/(?:main|mcp-main|cli)\.mjs|bin\/loupe\.mjs)$|(?:^|\/)\.?bin\/loupe$/

/**
 * Whether a holder is another Loupe (a second server, `loupe mcp`, a CLI command): one of its
 * arguments, resolved against its working directory, is a Loupe entry point. Only wording depends
 * on it: an unreadable or unrecognised process stays "OpenCode, perhaps", and the guards refuse alike.
 */
export function isLoupeProcess(pid: number): boolean {
  let args: string[]
  let cwd: string
  try {
    args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
    cwd = fs.readlinkSync(`/proc/${pid}/cwd`)
  } catch {
    return false
  }
  // argv[0] is node (or the bin itself, run by its shebang); the entry comes before Loupe's own flags.
  return args.some((arg) => !arg.startsWith('-') && LOUPE_ENTRY.test(path.resolve(cwd, arg)))
}

/** The holders in words: "OpenCode (process 12)", "another Loupe (pid 34)", or both. */
export function describeHolders(pids: readonly number[]): string {
  const loupe = pids.filter(isLoupeProcess)
  const others = pids.filter((p) => !loupe.includes(p))
  const words = [
    ...(others.length ? [`OpenCode (process ${others.join(', ')})`] : []),
    ...(loupe.length ? [`another Loupe (pid ${loupe.join(', ')})`] : []),
  ]
  return words.join(' and ')
}
