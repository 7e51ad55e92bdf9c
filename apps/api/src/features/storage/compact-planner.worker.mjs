// Worker entry: the api ships as TypeScript run by tsx, and a worker thread does not inherit the
// parent's loader hooks, so it registers tsx itself before loading the worker module.
import { register } from 'tsx/esm/api'

register()
await import('./compact-planner.worker.ts')
