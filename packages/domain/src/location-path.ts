/**
 * Lexical POSIX paths for gallery proofs and references: names resolve against the session
 * directory without touching the file system (no symlinks followed, nothing stat'ed), so the
 * answer depends only on the transcript.
 */

function normalizeAbsolute(path: string): string {
  const out: string[] = []
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue
    if (segment === '..') out.pop()
    else out.push(segment)
  }
  return '/' + out.join('/')
}

/** `name` resolved against `directory`: absolute names are normalized, relative ones joined first. */
export function resolveLexical(directory: string, name: string): string | undefined {
  if (name.length === 0 || name.includes('\u0000')) return undefined
  const text = name.startsWith('file://') ? safeDecode(name.slice('file://'.length)) : name
  if (text === undefined) return undefined
  if (text.startsWith('/')) return normalizeAbsolute(text)
  if (!directory.startsWith('/')) return undefined
  return normalizeAbsolute(`${directory}/${text}`)
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text)
  } catch {
    return undefined
  }
}

/** `absolute` relative to `directory`, or undefined when it is outside it (or is the directory itself). */
export function relativeInside(directory: string, absolute: string): string | undefined {
  const root = normalizeAbsolute(directory)
  const prefix = root === '/' ? '/' : `${root}/`
  if (!absolute.startsWith(prefix) || absolute.length === prefix.length) return undefined
  return absolute.slice(prefix.length)
}

/** The path without the extension of its last segment: `out/hero.png` → `out/hero`. */
export function stemOf(path: string): string {
  const slash = path.lastIndexOf('/')
  const dot = path.lastIndexOf('.')
  return dot > slash + 1 ? path.slice(0, dot) : path
}
