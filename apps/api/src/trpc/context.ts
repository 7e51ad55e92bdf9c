import type { AppDeps } from '../deps.js'

export interface Context {
  deps: AppDeps
}

export const createContextFactory = (deps: AppDeps) => (): Context => ({ deps })
