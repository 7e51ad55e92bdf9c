export * from './harness.js'
export * from './server.js'
