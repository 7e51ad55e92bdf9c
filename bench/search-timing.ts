// Timers for the search bench's (a) and (b), kept open side by side so that both are sampled in
// the same stretches of time: on a shared VM one path timed a minute after another can land in a
// slow phase of the host alone. Each turn is a short warm burst, its first execution discarded
// (see http-timer.mjs).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import path from 'node:path'
import readline from 'node:readline'

/** One answer of the sqlite3 CLI's `.timer`: wall clock (1 ms resolution) and user + sys CPU (µs). */
export interface CliTime { wallMs: number; cpuMs: number }

/** A line-oriented child: write a request, wait for the next `lines` lines that `accept` parses. */
function lineSession<T>(child: ChildProcessWithoutNullStreams, accept: (line: string) => T | undefined) {
  const waiting: Array<{ want: number; got: T[]; resolve: (v: T[]) => void; reject: (e: Error) => void }> = []
  let failure: Error | null = null
  let stderr = ''
  const fail = (error: Error) => {
    failure ??= error
    for (const w of waiting.splice(0)) w.reject(failure)
  }
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
    fail(new Error(stderr.trim()))
  })
  child.on('exit', (code) => fail(new Error(`exited with ${code}${stderr ? `: ${stderr.trim()}` : ''}`)))
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const value = accept(line)
    const head = waiting[0]
    if (value === undefined || !head) return
    head.got.push(value)
    if (head.got.length === head.want) waiting.shift()!.resolve(head.got)
  })
  return {
    ask(request: string, lines: number): Promise<T[]> {
      if (failure) return Promise.reject(failure)
      return new Promise<T[]>((resolve, reject) => {
        waiting.push({ want: lines, got: [], resolve, reject })
        child.stdin.write(request)
      })
    },
    close() {
      child.stdin.end()
      child.kill()
    },
  }
}

/**
 * (a): one warm sqlite3 CLI session on the index. Each statement's time is the CLI's own `.timer`
 * line, so pipes and printing the rows are not in it.
 */
export function openCliTimer(sqlite: string, file: string) {
  const child = spawn(sqlite, ['-readonly', '-batch', file])
  const session = lineSession<CliTime>(child, (line) => {
    const m = /^Run Time: real ([\d.]+) user ([\d.]+) sys ([\d.]+)/.exec(line)
    return m ? { wallMs: Number(m[1]) * 1000, cpuMs: (Number(m[2]) + Number(m[3])) * 1000 } : undefined
  })
  child.stdin.write('.timer on\n')
  return {
    /** `count` timed executions after one untimed. */
    burst: async (sql: string, count: number) => (await session.ask(`${sql}\n`.repeat(count + 1), count + 1)).slice(1),
    close: () => session.close(),
  }
}

/** One request of (b): the client's round trip, and the server's own time (its Server-Timing). */
export interface HttpTime { clientMs: number; serverMs: number }

/** (b): `http-timer.mjs` in its own process, one kept-alive connection. */
export function openHttpTimer(baseURL: string, token: string) {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'http-timer.mjs'), baseURL, token])
  const parse = (line: string) => line.split(' ').map((pair): HttpTime => {
    const [clientMs, serverMs] = pair.split(',').map(Number) as [number, number]
    return { clientMs, serverMs }
  })
  // Every line it prints is one burst's times; failures go to stderr.
  const session = lineSession<HttpTime[]>(child, parse)
  return {
    /** `count` timed GETs after one untimed. */
    burst: async (urlPath: string, count: number) => (await session.ask(`${count} ${urlPath}\n`, 1))[0]!,
    close: () => session.close(),
  }
}

export interface TurnPlan {
  sqlite: string
  indexFile: string
  baseURL: string
  token: string
  /** Timed executions per path and side: `rounds` turns of `burst`. */
  rounds: number
  burst: number
  /** Paths timed once a round before the pairs (round trips without a search). */
  bare: string[]
  /** Each query as (a) SQL for the CLI and (b) a path for the server. */
  pairs: Array<{ sql: string; path: string }>
}

/** (a) and (b) in turns, pair by pair and round by round; which side goes first alternates. */
export async function timeInTurns(plan: TurnPlan) {
  const bare = plan.bare.map(() => [] as HttpTime[])
  const pairs = plan.pairs.map(() => ({ a: [] as CliTime[], b: [] as HttpTime[] }))
  const cli = openCliTimer(plan.sqlite, plan.indexFile)
  const http = openHttpTimer(plan.baseURL, plan.token)
  try {
    for (let round = 0; round < plan.rounds; round++) {
      for (const [i, p] of plan.bare.entries()) bare[i]!.push(...(await http.burst(p, plan.burst)))
      for (const [i, p] of plan.pairs.entries()) {
        const timeA = async () => pairs[i]!.a.push(...(await cli.burst(p.sql, plan.burst)))
        const timeB = async () => pairs[i]!.b.push(...(await http.burst(p.path, plan.burst)))
        if (round % 2) await timeA().then(timeB)
        else await timeB().then(timeA)
      }
    }
  } finally {
    cli.close()
    http.close()
  }
  return { bare, pairs }
}
