import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildV2Fixture } from '../../../test/fixtures/v2-fixture.js'
import { createTestDeps, tempDir, type TestDeps } from '../../../test/harness.js'
import { compactEventLog } from './compact.service.js'

// 2.x logs hold deltas, not snapshots of whole parts: compaction has nothing of theirs to redact and
// must leave every byte alone, on both fixture shapes and on a file upgraded from 1.x.
describe('compactEventLog on 2.x files', () => {
  let deps: TestDeps | undefined
  afterEach(() => deps?.cleanup())

  for (const shape of ['july', 'current'] as const) {
    for (const variant of ['fresh', 'upgraded'] as const) {
      it(`${shape} ${variant}: the dry run and the write redact no 2.x event and change no 2.x row`, async () => {
        const file = path.join(tempDir(), 'opencode.db')
        buildV2Fixture(file, { variant, shape })
        deps = await createTestDeps(file)
        const { db } = deps.opencode
        const rows = () => db.allSql<{ id: string; data: string }>(`SELECT id, data FROM session_message ORDER BY id`)
        const v2Events = () => db.allSql<{ id: string; data: string }>(`SELECT e.id, e.data FROM event e JOIN session_v2 s ON s.id = e.aggregate_id ORDER BY e.id`)
        const before = { rows: rows(), events: v2Events() }
        expect(before.rows.length).toBeGreaterThan(0)
        const dry = await compactEventLog(deps, { dryRun: true })
        const applied = await compactEventLog(deps, { dryRun: false })
        expect(applied.status).toBe('done')
        expect(before.events.length).toBeGreaterThan(0)
        expect(rows()).toEqual(before.rows)
        expect(v2Events()).toEqual(before.events)
        // A fresh 2.x file has no 1.x log at all: both runs say so and count nothing.
        if (variant === 'fresh') {
          expect([dry.eventsRedacted, applied.eventsRedacted, applied.eventBytesBefore]).toEqual([0, 0, 0])
          expect(applied.notes.join(' ')).toMatch(/nothing to do|no event log/i)
        }
      })
    }
  }
})
