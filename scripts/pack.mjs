// `npm run pack`: one tarball, loupe-<version>.tgz, that runs as `npx ./loupe-<version>.tgz`: the
// api, CLI and MCP server as JavaScript (apps/api/dist), the built web app (apps/web/dist) and the
// bin, with the npm packages the bundle imports as its dependencies. The workspace root is the
// monorepo (private, dev tools only), so the package is staged in .cache/pack and packed there.
import fs from 'node:fs'
import path from 'node:path'
import { ensureDependencies, root, run } from './ensure.mjs'
import { shrinkwrapFrom, shrinkwrapPath } from './pack-shrinkwrap.mjs'

process.env.TURBO_TELEMETRY_DISABLED = '1'
ensureDependencies()
if (run('npx', ['turbo', 'run', 'build', '--filter=@loupe/api', '--filter=@loupe/web', '--output-logs=errors-only']) !== 0) {
  console.error('[loupe] the build failed (see above).')
  process.exit(1)
}

const readJson = (file) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'))
const rootPkg = readJson('package.json')
// What the bundle leaves external: every npm dependency of the code it took in, minus the dev-time loader.
const dependencies = {}
for (const file of ['apps/api/package.json', 'packages/domain/package.json', 'packages/demo/package.json']) {
  for (const [name, version] of Object.entries(readJson(file).dependencies ?? {})) {
    if (!name.startsWith('@loupe/') && name !== 'tsx') dependencies[name] = version
  }
}

const dist = path.join(root, 'apps/api/dist')
const imported = new Set()
for (const file of fs.readdirSync(dist).filter((f) => f.endsWith('.mjs'))) {
  // Import statements only (the demo's sample projects carry import lines inside strings).
  for (const m of fs.readFileSync(path.join(dist, file), 'utf8').matchAll(/^(?:import|export)\b[^;'"]*?from\s*"([^".][^"]*)"|\bimport\("([^".][^"]*)"\)/gm)) {
    const spec = m[1] ?? m[2]
    if (spec.startsWith('node:')) continue
    imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0])
  }
}
const undeclared = [...imported].filter((name) => !(name in dependencies))
if (undeclared.length) {
  console.error(`[loupe] the bundle imports packages no workspace package declares: ${undeclared.join(', ')}`)
  process.exit(1)
}

const stage = path.join(root, '.cache', 'pack', 'loupe')
fs.rmSync(stage, { recursive: true, force: true })
const copy = (from, filter = () => true) => fs.cpSync(path.join(root, from), path.join(stage, from), { recursive: true, filter: (src) => filter(src) })
copy('apps/api/bin')
copy('apps/api/dist', (src) => !src.endsWith('.map'))
copy('apps/web/dist')
copy('README.md')
const pkg = {
  name: 'loupe',
  version: rootPkg.version,
  description: rootPkg.description,
  type: 'module',
  license: rootPkg.license ?? 'UNLICENSED',
  engines: rootPkg.engines,
  bin: { loupe: 'apps/api/bin/loupe.mjs' },
  files: ['apps/api/bin', 'apps/api/dist', 'apps/web/dist', 'README.md', 'npm-shrinkwrap.json'],
  dependencies: Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b))),
}
fs.writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`)
const shrinkwrap = shrinkwrapFrom(readJson('package-lock.json'), pkg.name, pkg.version, pkg.dependencies)
fs.writeFileSync(shrinkwrapPath(stage), `${JSON.stringify(shrinkwrap, null, 2)}\n`)
const status = run('npm', ['pack', '--pack-destination', root, '--loglevel=warn'], { cwd: stage })
if (status === 0) console.error(`[loupe] packed ${path.join(root, `loupe-${pkg.version}.tgz`)}`)
process.exit(status)
