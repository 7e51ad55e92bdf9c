import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import readline from 'node:readline'
import { fileURLToPath } from 'node:url'

const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'prune-runner.ts')

/** A second Loupe process (prune-runner.ts) on the same database; stopped only by its own pid. */
export interface RunnerProcess {
  pid: number
  send(command: unknown): void
  /** The next JSON line it prints (rejects if it exits first). */
  next<T = Record<string, unknown>>(): Promise<T>
  kill(signal?: NodeJS.Signals): Promise<void>
  exited: Promise<number | null>
}

export async function startRunner(db: string): Promise<RunnerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script, db], { stdio: ['pipe', 'pipe', 'inherit'] })
  const queue: string[] = []
  const waiting: Array<{ resolve: (line: string) => void; reject: (e: Error) => void }> = []
  let closed = false
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const w = waiting.shift()
    if (w) w.resolve(line)
    else queue.push(line)
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => {
    closed = true
    for (const w of waiting.splice(0)) w.reject(new Error(`runner exited (${code})`))
    resolve(code)
  }))
  const next = <T>() => new Promise<T>((resolve, reject) => {
    const line = queue.shift()
    if (line !== undefined) return resolve(JSON.parse(line) as T)
    if (closed) return reject(new Error('runner exited'))
    waiting.push({ resolve: (l) => resolve(JSON.parse(l) as T), reject })
  })
  const runner: RunnerProcess = {
    pid: child.pid!,
    send: (command) => child.stdin!.write(JSON.stringify(command) + '\n'),
    next,
    async kill(signal = 'SIGTERM') {
      if (!closed) child.kill(signal)
      await exited
    },
    exited,
  }
  await next() // {ready}
  return runner
}
