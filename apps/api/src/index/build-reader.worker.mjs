// Worker entry (see indexer.worker.mjs): registers tsx, then loads the build's reader thread.
import { register } from 'tsx/esm/api'

register()
await import('./build-reader.worker.ts')
