/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import solid from 'vite-plugin-solid'

const api = process.env.LOUPE_API_URL ?? 'http://127.0.0.1:4455'

export default defineConfig({
  plugins: [solid()],
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 1200 },
  server: { proxy: { '/trpc': api, '/api': api } },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    globalSetup: ['./test/global-setup.ts'],
    setupFiles: ['./test/setup.ts'],
    testTimeout: 15_000,
    server: { deps: { inline: [/solid-js/, /@solidjs\/router/, /@solidjs\/testing-library/] } },
  },
  resolve: { conditions: ['development', 'browser'] },
})
