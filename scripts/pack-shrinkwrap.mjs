// The packed package's npm-shrinkwrap.json: the monorepo lock's entries the runtime dependencies
// reach, so `npx ./loupe-<version>.tgz` installs the exact versions tested here (from the npm
// cache by integrity when offline) instead of resolving ranges against the registry.
import path from 'node:path'

/** Where node would find `name` from the package at `from` (a lock key such as `node_modules/a/node_modules/b`). */
function locate(packages, from, name) {
  let dir = from
  for (;;) {
    const key = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`
    if (packages[key]) return key
    if (!dir) return null
    const at = dir.lastIndexOf('/node_modules/')
    dir = at < 0 ? '' : dir.slice(0, at)
  }
}

/** A lockfile v3 for a package named `name` that depends on `dependencies`, cut from `lock`. */
export function shrinkwrapFrom(lock, name, version, dependencies) {
  const packages = lock.packages
  const keep = new Map()
  const queue = Object.keys(dependencies).map((dep) => ['', dep, false])
  while (queue.length) {
    const [from, dep, optional] = queue.shift()
    const key = locate(packages, from, dep)
    if (!key) {
      if (optional) continue
      throw new Error(`the lock has no ${dep} for ${from || 'the package'}`)
    }
    if (keep.has(key)) continue
    const entry = packages[key]
    if (entry.link) throw new Error(`${dep} is a workspace link; bundle it instead`)
    keep.set(key, entry)
    for (const d of Object.keys(entry.dependencies ?? {})) queue.push([key, d, false])
    for (const d of Object.keys(entry.optionalDependencies ?? {})) queue.push([key, d, true])
    // npm installs required peers (typescript for @trpc/server) and never optional ones.
    for (const d of Object.keys(entry.peerDependencies ?? {})) if (!entry.peerDependenciesMeta?.[d]?.optional) queue.push([key, d, false])
  }
  const sorted = [...keep].sort(([a], [b]) => a.localeCompare(b))
  // The monorepo marks packages only its dev tools need; in the package every kept one is a runtime one.
  const clean = (entry) => Object.fromEntries(Object.entries(entry).filter(([k]) => k !== 'dev' && k !== 'devOptional' && k !== 'peer'))
  return {
    name, version, lockfileVersion: 3, requires: true,
    packages: { '': { name, version, dependencies }, ...Object.fromEntries(sorted.map(([k, e]) => [k, clean(e)])) },
  }
}

export const shrinkwrapPath = (stage) => path.join(stage, 'npm-shrinkwrap.json')
