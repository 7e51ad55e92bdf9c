// Memory of another process from /proc (Linux): RSS of all its threads, sampled on a timer, with
// the kernel's own high-water mark reset at the start of each measured job.
import fs from 'node:fs'

export interface MemorySample {
  /** VmRSS: resident now, all threads (anonymous + file-backed, e.g. SQLite's mmap). */
  rssKb: number
  /** VmHWM: the peak of VmRSS since the process started or since `resetPeak`. */
  hwmKb: number
  anonKb: number
  fileKb: number
  threads: number
}

export function readMemory(pid: number): MemorySample | null {
  let text: string
  try {
    text = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  } catch {
    return null
  }
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? NaN)
  return { rssKb: field('VmRSS'), hwmKb: field('VmHWM'), anonKb: field('RssAnon'), fileKb: field('RssFile'), threads: field('Threads') }
}

/** User + system CPU seconds `pid` has used, all threads. */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/**
 * Writing 5 to clear_refs resets VmHWM to the current RSS (Linux ≥ 4.0), so each job's peak is its
 * own and not the build's. Returns false where the kernel refuses (then peaks are only sampled).
 */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}

export interface PhaseMemory {
  /** The highest VmRSS seen by the 250 ms sampler during the phase. */
  sampledPeakKb: number
  /** VmHWM at the end of the phase (exact, when `resetPeak` worked at its start). */
  hwmKb: number
  samples: number
}

/** Samples `pid` every `everyMs` while a phase runs; `phase(fn)` returns the phase's peaks. */
export function createSampler(pid: number, everyMs = 250) {
  let current: PhaseMemory | null = null
  const tick = () => {
    const m = readMemory(pid)
    if (!m || !current) return
    current.sampledPeakKb = Math.max(current.sampledPeakKb, m.rssKb)
    current.samples++
  }
  const timer = setInterval(tick, everyMs)
  return {
    async phase<T>(fn: () => Promise<T>, reset = true): Promise<{ value: T; memory: PhaseMemory; wallS: number; cpuS: number }> {
      // Without a reset the peak counts from the process's start.
      const peakReset = reset ? resetPeak(pid) : true
      current = { sampledPeakKb: readMemory(pid)?.rssKb ?? 0, hwmKb: 0, samples: 0 }
      const cpu0 = cpuSeconds(pid)
      const t0 = performance.now()
      const value = await fn()
      const wallS = (performance.now() - t0) / 1000
      tick()
      const memory = current
      memory.hwmKb = peakReset ? (readMemory(pid)?.hwmKb ?? 0) : memory.sampledPeakKb
      current = null
      return { value, memory, wallS, cpuS: cpuSeconds(pid) - cpu0 }
    },
    stop: () => clearInterval(timer),
  }
}
