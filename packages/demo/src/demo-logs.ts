import type { ProjectDef } from './projects/types.js'
import type { Random } from './random.js'

/**
 * Generated tool output. Most is small; `outputBytes` draws the long tail real histories have
 * (test logs, builds, diffs of 20–400 KB) that makes up most of a database's bytes.
 */
export function outputBytes(random: Random): number {
  const r = random.next()
  if (r < 0.915) return random.int(300, 2_000)
  if (r < 0.993) return Math.round(random.logUniform(2_000, 20_000))
  return Math.round(random.logUniform(20_000, 400_000))
}

const QUALIFIERS = ['with an empty input', 'when the cache is cold', 'after a retry', 'for unicode input', 'at the boundary', 'when called twice', 'with the default options', 'under load', 'for a large payload', 'when the clock skews']

function testName(project: ProjectDef, random: Random): string {
  const { nouns, verbs } = project.vocabulary
  return `${random.pick(verbs)} ${random.pick(nouns)} ${random.pick(QUALIFIERS)}`
}

/** Test names until the listing reaches about `bytes`. */
function manyTests(project: ProjectDef, random: Random, bytes: number, line: (name: string, ms: number) => string): { lines: string[]; count: number } {
  const lines: string[] = []
  let size = 0
  while (size < bytes) {
    const l = line(testName(project, random), random.int(0, 40))
    lines.push(l)
    size += l.length + 1
  }
  return { lines, count: lines.length }
}

/** A request log line as Fastify's pino logger prints it while tests run. */
function pinoLine(random: Random, t: number): string {
  const url = random.pick(['/v1/users?limit=20', '/v1/users', '/healthz', '/v1/users/8d1f', '/v1/sessions'])
  return JSON.stringify({ level: 30, time: t, pid: 48213, hostname: 'devbox', reqId: `req-${random.int(1, 999)}`, req: { method: url === '/v1/users' ? 'POST' : 'GET', url, host: 'localhost:80', remoteAddress: '127.0.0.1' }, msg: 'incoming request' })
}

export interface TestRun {
  output: string
  exit: number
}

/** `npm test` / `cargo test` / `node --test` output of roughly `bytes`, failing on `failure` if given. */
export function testRun(project: ProjectDef, root: string, random: Random, bytes: number, failure?: { test: string; failure: string }): TestRun {
  const exit = failure ? 1 : 0
  if (project.test.style === 'cargo') {
    const { lines, count } = manyTests(project, random, bytes, (n, _ms) => `test ${n.replace(/ /g, '_')} ... ok`)
    const fail = failure ? [`test ${failure.test} ... FAILED`, '', 'failures:', '', `---- ${failure.test} stdout ----`, failure.failure, '', 'failures:', `    ${failure.test}`, ''] : []
    const summary = `test result: ${failure ? 'FAILED' : 'ok'}. ${count} passed; ${failure ? 1 : 0} failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.${random.int(10, 99)}s`
    return { exit, output: [`   Compiling ${project.key} v0.4.2 (${root})`, `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in ${random.int(1, 9)}.${random.int(10, 99)}s`, `     Running unittests src/lib.rs (target/debug/deps/${project.key}-${random.hex(16)})`, '', `running ${count + (failure ? 1 : 0)} tests`, ...lines, ...fail, '', summary, ''].join('\n') }
  }
  if (project.test.style === 'node') {
    const { lines, count } = manyTests(project, random, bytes, (n, ms) => `# Subtest: ${n}\nok 1 - ${n}\n  ---\n  duration_ms: ${ms}.${random.int(100000, 999999)}\n  ...`)
    const fail = failure ? [`# Subtest: ${failure.test}`, `not ok ${count + 1} - ${failure.test}`, '  ---', `  error: |-\n    ${failure.failure.split('\n').join('\n    ')}`, '  ...'] : []
    return { exit, output: ['TAP version 13', ...lines, ...fail, `1..${count + (failure ? 1 : 0)}`, `# tests ${count + (failure ? 1 : 0)}`, `# pass ${count}`, `# fail ${failure ? 1 : 0}`, `# duration_ms ${random.int(80, 900)}.${random.int(100, 999)}`, ''].join('\n') }
  }
  const t0 = 1_735_000_000_000 + random.int(0, 1e9)
  let i = 0
  const { lines, count } = manyTests(project, random, bytes, (n, ms) => (random.chance(0.4) ? `stdout | test/${project.key}.test.ts > ${n}\n${pinoLine(random, t0 + i++)}\n` : '') + `   ✓ ${n} ${ms}ms`)
  const fail = failure ? ['', ` FAIL  ${failure.test}`, failure.failure, ''] : []
  return { exit, output: [` RUN  v2.1.8 ${root}`, '', ...lines, ...fail, '', ` Test Files  ${failure ? '1 failed | ' : ''}${random.int(3, 9)} passed`, `      Tests  ${failure ? '1 failed | ' : ''}${count} passed (${count + (failure ? 1 : 0)})`, `   Duration  ${random.int(1, 9)}.${random.int(10, 99)}s`, ''].join('\n') }
}

/** A production build log; large ones list every emitted chunk. */
export function buildRun(project: ProjectDef, random: Random, bytes: number): string {
  if (project.build.style === 'cargo') {
    const crates = ['libc', 'cfg-if', 'autocfg', 'memchr', 'itoa', 'serde', 'once_cell', 'smallvec', 'bytemuck', 'num-traits', 'crc32fast', 'adler2', 'miniz_oxide', 'png', 'rayon-core', 'either']
    const lines: string[] = []
    for (let size = 0; size < bytes; size += (lines.at(-1)?.length ?? 0) + 1) {
      lines.push(`   Compiling ${random.pick(crates)} v${random.int(0, 2)}.${random.int(0, 30)}.${random.int(0, 20)}`)
    }
    return [...lines, `   Compiling ${project.key} v0.4.2`, `    Finished \`release\` profile [optimized] target(s) in ${random.int(8, 60)}.${random.int(10, 99)}s`, ''].join('\n')
  }
  const chunks: string[] = []
  let size = 0
  while (size < bytes) {
    const name = `dist/assets/${random.pick(['index', 'vendor', 'NoteList', 'editor', 'chunk', 'markdown', 'dates'])}-${random.base62(8)}.js`
    const kb = random.logUniform(0.4, 180)
    const line = `${name.padEnd(44)} ${kb.toFixed(2).padStart(8)} kB │ gzip: ${(kb / 3.1).toFixed(2).padStart(7)} kB`
    chunks.push(line)
    size += line.length + 1
  }
  return ['vite v6.0.5 building for production...', 'transforming...', `✓ ${random.int(80, 2400)} modules transformed.`, 'rendering chunks...', 'computing gzip size...', 'dist/index.html                               0.46 kB │ gzip:    0.30 kB', ...chunks, `✓ built in ${random.int(1, 9)}.${random.int(10, 99)}s`, ''].join('\n')
}

const COMMIT_VERBS = ['Fix', 'Add', 'Refactor', 'Update', 'Remove', 'Speed up', 'Document', 'Test']

/** `git log --stat` over many commits. */
export function gitLog(project: ProjectDef, random: Random, bytes: number, files: string[]): string {
  const out: string[] = []
  let size = 0
  let t = Date.UTC(2025, 9, 1) / 1000
  while (size < bytes) {
    t -= random.int(600, 200_000)
    const touched = Array.from({ length: random.int(1, 4) }, () => random.pick(files))
    const entry = [
      `commit ${random.hex(40)}`,
      `Author: ${random.pick(['Ana Souza', 'Ben Okafor', 'Chen Wei', 'Dana Ito'])} <dev@example.com>`,
      `Date:   ${new Date(t * 1000).toUTCString()}`,
      '',
      `    ${random.pick(COMMIT_VERBS)} ${random.pick(project.vocabulary.nouns)} handling`,
      '',
      ...touched.map((f) => ` ${f.padEnd(40)} | ${random.int(1, 80)} ${'+'.repeat(random.int(1, 20))}${'-'.repeat(random.int(0, 12))}`),
      ` ${touched.length} files changed, ${random.int(1, 200)} insertions(+), ${random.int(0, 90)} deletions(-)`,
      '',
    ].join('\n')
    out.push(entry)
    size += entry.length
  }
  return out.join('\n')
}

/** `ls -la` of the worktree's top level. */
export function listDirectory(root: string, files: Iterable<string>, random: Random): string {
  const top = [...new Set([...files].map((f) => f.split('/')[0] ?? f))].sort()
  const rows = top.map((name) => {
    const dir = [...files].some((f) => f.startsWith(`${name}/`))
    return `${dir ? 'drwxr-xr-x' : '-rw-r--r--'}  ${dir ? random.int(3, 9) : 1} dev dev ${String(dir ? 4096 : random.int(90, 9000)).padStart(5)} Nov ${random.int(1, 28)} ${String(random.int(8, 19)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')} ${name}`
  })
  return [`total ${random.int(24, 96)}`, `drwxr-xr-x  ${top.length + 2} dev dev  4096 Nov 29 10:12 .`, 'drwxr-xr-x 14 dev dev  4096 Nov 29 09:58 ..', 'drwxr-xr-x  8 dev dev  4096 Nov 29 10:12 .git', ...rows, ''].join('\n')
}

/** A big data file a session reads (fixtures, snapshots): the long tail of `read` outputs. */
export function bigDataFile(project: ProjectDef, random: Random, bytes: number): { path: string; content: string } {
  const rows: string[] = []
  let size = 0
  for (let i = 1; size < bytes; i++) {
    const row = `  { "id": "${random.hex(8)}", "${random.pick(project.vocabulary.nouns).replace(/ /g, '_')}": ${random.int(0, 99999)}, "label": "${testName(project, random)}", "ok": ${random.chance(0.9)} },`
    rows.push(row)
    size += row.length + 1
  }
  return { path: `test/fixtures/${random.pick(['recorded', 'golden', 'sample'])}-${random.int(1, 40)}.json`, content: `[\n${rows.join('\n')}\n  null\n]\n` }
}
