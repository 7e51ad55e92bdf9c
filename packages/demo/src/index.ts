// @loupe/demo: writes synthetic OpenCode histories for `npm start` without a database, the
// benches and the tests. It is a lab tool, not the product: it may use @loupe/domain and nothing of
// the api, and only the api's composition root (main.ts), bench and tests import it.

export { DEMO_DEFAULTS, generateDemoDb, type DemoOptions, type DemoSummary } from './demo-db.js'
export { OPENCODE_1_18_33_SCHEMA } from './opencode-schema.js'

// The building blocks of a session's rows, for test kits that write another storage generation
// from the same conversations (the 2.x fixtures).
export { createWorld, planSession } from './demo-plan.js'
export { createDemoClock, type SessionRows } from './demo-rows.js'
export { playSession } from './demo-turns.js'
export { createIdSource, type IdSource } from './opencode-ids.js'
export { paintDemoImage } from './png.js'
export { createRandom, type Random } from './random.js'
