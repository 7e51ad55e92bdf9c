import fs from 'node:fs'
import { processLinks, runLsof } from './file-holders.js'

/** A TCP port a process listens on, and the loopback address that reaches it. */
export interface Listener {
  pid: number
  url: string
}

const LISTEN = '0A'
const V4_LOOPBACK = /^[0-9A-F]{6}7F$/ // 127.x.x.x, little-endian
const V4_ANY = '00000000'
const V6_LOOPBACK = '00000000000000000000000001000000'
const V6_ANY = '00000000000000000000000000000000'
const V6_MAPPED_LOOPBACK = /^0000000000000000FFFF0000[0-9A-F]{6}7F$/

/**
 * The ports these processes listen on that a loopback client reaches (bound to loopback or to every
 * address): Linux matches their socket inodes against /proc/net/tcp and tcp6; elsewhere `lsof`.
 * null when neither can tell.
 */
export function loopbackListeners(pids: readonly number[]): Listener[] | null {
  if (pids.length === 0) return []
  const fromProc = procListeners(pids)
  return fromProc ?? lsofListeners(pids)
}

function procListeners(pids: readonly number[]): Listener[] | null {
  const table = new Map<string, string>()
  let readable = false
  for (const [file, v6] of [['/proc/net/tcp', false], ['/proc/net/tcp6', true]] as const) {
    let text: string
    try {
      text = fs.readFileSync(file, 'utf8')
    } catch {
      continue
    }
    readable = true
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/)
      const [address, port] = (cols[1] ?? '').split(':')
      if (cols[3] !== LISTEN || !address || !port || !cols[9]) continue
      const host = reachableHost(address, v6)
      if (host) table.set(cols[9], `http://${host}:${parseInt(port, 16)}`)
    }
  }
  if (!readable) return null
  const listeners: Listener[] = []
  for (const pid of pids) {
    for (const link of processLinks(pid)) {
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1]
      const url = inode && table.get(inode)
      if (url) listeners.push({ pid, url })
    }
  }
  return listeners
}

function reachableHost(address: string, v6: boolean): string | null {
  if (!v6) return V4_LOOPBACK.test(address) || address === V4_ANY ? '127.0.0.1' : null
  if (address === V6_LOOPBACK || address === V6_ANY) return '[::1]'
  return V6_MAPPED_LOOPBACK.test(address) ? '127.0.0.1' : null
}

function lsofListeners(pids: readonly number[]): Listener[] | null {
  const out = runLsof(['-nP', '-a', '-p', pids.join(','), '-iTCP', '-sTCP:LISTEN', '-Fpn'])
  if (out === null) return null
  const listeners: Listener[] = []
  let pid = 0
  for (const line of out.split('\n')) {
    if (line.startsWith('p')) pid = Number(line.slice(1))
    if (!line.startsWith('n')) continue
    const match = /^n(.*):(\d+)$/.exec(line)
    if (!match) continue
    const host = match[1] === '*' || match[1] === '0.0.0.0' || match[1]!.startsWith('127.') ? '127.0.0.1' : match[1] === '[::1]' || match[1] === '[::]' ? '[::1]' : null
    if (host && pid) listeners.push({ pid, url: `http://${host}:${match[2]}` })
  }
  return listeners
}
