import fs from 'node:fs'

/** Other processes that have this file open (Linux /proc); empty where that cannot be known. */
export function fileHolders(file: string, self = process.pid): number[] {
  const holders: number[] = []
  let pids: string[]
  try {
    pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p) && Number(p) !== self)
  } catch {
    return holders
  }
  const targets = new Set([file, `${file}-wal`])
  for (const pid of pids) {
    let fds: string[]
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        if (targets.has(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))) {
          holders.push(Number(pid))
          break
        }
      } catch {
        /* the fd closed meanwhile */
      }
    }
  }
  return holders
}
