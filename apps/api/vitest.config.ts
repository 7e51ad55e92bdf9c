import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Real SQLite files and, in a few suites, the real OpenCode binary: give them room.
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
})
