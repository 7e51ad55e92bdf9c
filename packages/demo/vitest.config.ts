import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    // The schema test compares with a database the real OpenCode wrote (a cached fixture, made once per machine).
    hookTimeout: 180_000,
  },
})
