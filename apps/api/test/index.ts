export * from './harness.js'
export * from './server.js'
export * from './opencode-serve.js'
