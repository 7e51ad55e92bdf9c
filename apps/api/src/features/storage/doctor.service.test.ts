import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { buildV2Fixture } from '../../../test/fixtures/v2-fixture.js'
import { createCaller, createTestDeps, realFixture, tempDir, type TestDeps } from '../../../test/harness.js'
import { runDoctor } from './doctor.service.js'
import { doctorDepsOf } from './storage-deps.js'

let deps: TestDeps | undefined
afterEach(() => deps?.cleanup())

describe('storage.doctor', () => {
  it('scans in the background, then answers the cached report until the file changes', async () => {
    deps = await createTestDeps((await realFixture()).db)
    const caller = createCaller({ deps })
    const first = await caller.storage.doctor({})
    expect(first.state).toBe('running')
    const report = await runDoctor(doctorDepsOf(deps))
    const done = await caller.storage.doctor({})
    expect(done).toEqual({ state: 'done', report })

    expect(report.tables.event).toBeGreaterThan(report.tables.part ?? 0)
    expect(report.events.current + report.events.superseded + report.events.redacted).toBe(
      deps.opencode.db.getSql<{ b: number }>(`SELECT sum(octet_length(data)) AS b FROM event`)?.b,
    )
    const sessions = await caller.sessions.list({})
    expect(report.sessionCount).toBe(8)
    expect(report.sessions.map((s) => s.id).sort()).toEqual(expect.arrayContaining(sessions.sessions.map((s) => s.id)))
    expect(report.sessions[0]?.bytes).toBeGreaterThanOrEqual(report.sessions[1]?.bytes ?? 0)
    expect(report.projects.reduce((n, p) => n + p.sessions, 0)).toBe(report.sessionCount)
    expect(report.content.toolOutput).toBeGreaterThan(0)
    expect(report.dataDir.path).toBe(deps.dir)

    // A write (here: a whole session's events deleted) invalidates the cache.
    const biggest = report.sessions[0]?.id ?? ''
    deps.opencode.db.runSql(`DELETE FROM event WHERE aggregate_id = ?`, [biggest])
    expect((await caller.storage.doctor({})).state).toBe('running')
    const after = await runDoctor(doctorDepsOf(deps))
    expect(after.sessions.find((s) => s.id === biggest)?.eventBytes).toBe(0)
    expect(after.events.superseded).toBeLessThan(report.events.superseded)
  })

  it('reports progress while it scans and an empty file without failing', async () => {
    deps = await createTestDeps((await realFixture()).db)
    deps.opencode.db.raw.exec(`DELETE FROM event; DELETE FROM part; DELETE FROM message; DELETE FROM session`)
    const phases: string[] = []
    const report = await runDoctor(doctorDepsOf(deps), (p) => phases.push(p.phase))
    expect(report.sessions).toEqual([])
    expect(report.events).toEqual({ current: 0, superseded: 0, redacted: 0 })
    expect(phases.length).toBeGreaterThan(0)
  })

  it.each(['fresh', 'upgraded'] as const)('measures a 2.x database (%s): its sessions, with their storage generation', async (variant) => {
    const dir = tempDir()
    const fixture = buildV2Fixture(path.join(dir, 'v2.db'), { variant })
    try {
      deps = await createTestDeps(fixture.file)
      const report = await runDoctor(doctorDepsOf(deps))
      const v2 = fixture.sessions.filter((s) => s.storage === 'v2')
      expect(report.sessions.filter((s) => s.storage === 'v2').map((s) => s.id).sort()).toEqual(expect.arrayContaining(v2.map((s) => s.id).sort()))
      expect(report.tables.session_message).toBeGreaterThan(0)
      expect(report.sessions.every((s) => s.bytes >= s.eventBytes)).toBe(true)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
