import { ensureRealFixture } from '../../../tools/fixtures.mjs'

/** Generate (or reuse) the real OpenCode fixture once, before any test file runs. */
export default async function setup() {
  await ensureRealFixture()
}
