// The api, CLI and MCP server as JavaScript in dist/, so `bin/loupe.mjs`, `npm start` and the
// packed tarball run on plain node. esbuild rather than tsc: the workspace packages (@loupe/domain,
// @loupe/demo) export their TypeScript source to tsx, Vite and vitest; bundling them in leaves
// those exports alone, while npm dependencies stay external (native better-sqlite3 and sharp
// among them) and are installed beside the bundle.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const outdir = path.join(here, 'dist')

/** Entry → the file name it keeps: the services open workers by `new URL('./x.worker.mjs', import.meta.url)`, so every worker sits beside the chunk that starts it. */
export const ENTRIES = {
  main: 'src/main.ts',
  cli: 'src/cli/loupe.ts',
  'mcp-main': 'src/mcp-main.ts',
  'indexer.worker': 'src/index/indexer.worker.ts',
  'build-reader.worker': 'src/index/build-reader.worker.ts',
  'doctor.worker': 'src/features/storage/doctor.worker.ts',
  'clean-plan.worker': 'src/features/storage/clean-plan.worker.ts',
  'compact-planner.worker': 'src/features/storage/compact-planner.worker.ts',
  'reclaim-copy.worker': 'src/features/storage/reclaim-copy.worker.mjs',
}

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    // Bare specifiers other than the workspace's own packages are npm dependencies: not bundled.
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@loupe/') ? undefined : { path: args.path, external: true }))
  },
}

export async function buildApiJs() {
  fs.rmSync(outdir, { recursive: true, force: true })
  await build({
    absWorkingDir: here,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(here, file)])),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    sourcemap: 'linked',
    plugins: [externalPackages],
    logLevel: 'warning',
  })
  // `import.meta.dirname`-free entry points keep their relative URLs: dist/ sits where src/ did.
  fs.writeFileSync(path.join(outdir, 'package.json'), '{ "type": "module" }\n')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildApiJs()
