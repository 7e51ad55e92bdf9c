export * from './harness.js'
export * from './server.js'
export * from '../../../tools/opencode-serve.js'
