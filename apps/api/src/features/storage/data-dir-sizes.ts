import fs from 'node:fs'
import path from 'node:path'

/** The folders OpenCode keeps beside its database (opencode-storage.md §2.2), by report key. */
const FOLDERS = { storage: 'storage', toolOutput: 'tool-output', snapshot: 'snapshot', log: 'log' } as const

export interface FolderSize {
  bytes: number
  files: number
  /** True when the walk stopped at the file limit: `bytes` is a lower bound. */
  partial: boolean
}

export type DataDirSizes = { path: string } & { -readonly [K in keyof typeof FOLDERS]: FolderSize | null }

const MAX_FILES = 200_000

/** Sum a folder's file sizes without following links; never writes. Null when the folder is absent. */
export function measureFolder(dir: string, maxFiles = MAX_FILES): FolderSize | null {
  try {
    if (!fs.lstatSync(dir).isDirectory()) return null
  } catch {
    return null
  }
  const out: FolderSize = { bytes: 0, files: 0, partial: false }
  const stack = [dir]
  while (stack.length > 0) {
    const current = stack.pop() as string
    let entries: fs.Dirent[]
    try {
      entries = fs.readdirSync(current, { withFileTypes: true })
    } catch {
      continue
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name)
      if (entry.isDirectory()) stack.push(full)
      else if (entry.isFile()) {
        if (out.files >= maxFiles) return { ...out, partial: true }
        try {
          out.bytes += fs.lstatSync(full).size
          out.files += 1
        } catch {
          /* removed meanwhile */
        }
      }
    }
  }
  return out
}

/** Read-only sizes of OpenCode's data dir around the database. */
export function measureDataDir(dataDir: string): DataDirSizes {
  const at = (name: string) => measureFolder(path.join(dataDir, name))
  return { path: dataDir, storage: at(FOLDERS.storage), toolOutput: at(FOLDERS.toolOutput), snapshot: at(FOLDERS.snapshot), log: at(FOLDERS.log) }
}
