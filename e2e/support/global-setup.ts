import { startLoupe } from './loupe-server.js'

/**
 * Start one real Loupe for the run and hand its address to the tests through the environment
 * (workers inherit it). Playwright calls the returned function as the teardown.
 */
export default async function globalSetup() {
  const server = await startLoupe({ longMessages: 400 })
  process.env.LOUPE_E2E_URL = server.baseURL
  process.env.LOUPE_E2E_TOKEN = server.token
  process.env.LOUPE_E2E_LONG_SESSION = server.longSessionID
  return async () => {
    await server.stop()
  }
}
