import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'

/**
 * The sessions and messages of the real fixture the pruning tests work on, found by scenario (the
 * manifest) and by shape (the rows): ids are random on every generation, the conversations are not.
 */
export interface FixtureIds {
  tour: string
  errors: string
  plan: string
  image: string
  /** tour: step-start, reasoning, text, tool (bash), tool (glob), step-finish */
  tourMessage: string
  tourUser: string
  /** image+subagent: step-start, reasoning, read (an image in state.attachments), step-finish */
  imageRead: string
  v2: {
    tour: string
    image: string
    /** reasoning, text, bash, glob */
    tourMessage: string
    /** the tour's last message: its own reasoning (also id "reasoning-0") and text */
    tourLater: string
    /** reasoning, read (a PNG as a data URI) */
    imageRead: string
    imageUser: string
  }
}

type Row = { session: string; scenario: string; parentID: string | null }

export function fixtureIds(dir: string): FixtureIds {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as {
    sessions: Array<{ id: string; scenario?: string; parentID?: string | null }>
    sessionsV2: Array<{ id: string; scenario: string }>
  }
  const rows: Row[] = manifest.sessions.map((s) => ({ session: s.id, scenario: s.scenario ?? '', parentID: s.parentID ?? null }))
  const v1 = (scenario: string) => rows.find((r) => r.scenario === scenario && r.parentID === null)!.session
  const v2 = (scenario: string) => manifest.sessionsV2.find((s) => s.scenario === scenario)!.id
  const db = new Database(path.join(dir, 'opencode.db'), { readonly: true, fileMustExist: true })
  try {
    const v1Shape = (session: string, shape: string) =>
      db.prepare(
        `SELECT m.id FROM message m WHERE m.session_id = ?
           AND (SELECT group_concat(t, ',') FROM (SELECT json_extract(p.data, '$.type') AS t FROM part p WHERE p.message_id = m.id ORDER BY p.id)) = ?
         ORDER BY m.time_created, m.id LIMIT 1`,
      ).pluck().get(session, shape) as string
    const v2Shape = (session: string, shape: string) =>
      db.prepare(
        `SELECT m.id FROM session_message m WHERE m.session_id = ? AND m.type = 'assistant'
           AND (SELECT group_concat(coalesce(json_extract(c.value, '$.name'), json_extract(c.value, '$.type')), ',') FROM json_each(m.data, '$.content') c) = ?
         ORDER BY m.seq LIMIT 1`,
      ).pluck().get(session, shape) as string
    const firstOf = (table: string, session: string, where: string) =>
      db.prepare(`SELECT id FROM ${table} WHERE session_id = ? AND ${where} ORDER BY time_created, id LIMIT 1`).pluck().get(session) as string
    const tour = v1('tour')
    const image = v1('image+subagent')
    const v2Tour = v2('tour')
    const v2Image = v2('image+subagent')
    const ids: FixtureIds = {
      tour,
      errors: v1('errors'),
      plan: v1('plan'),
      image,
      tourMessage: v1Shape(tour, 'step-start,reasoning,text,tool,tool,step-finish'),
      tourUser: firstOf('message', tour, `json_extract(data, '$.role') = 'user'`),
      imageRead: v1Shape(image, 'step-start,reasoning,tool,step-finish'),
      v2: {
        tour: v2Tour,
        image: v2Image,
        tourMessage: v2Shape(v2Tour, 'reasoning,text,bash,glob'),
        tourLater: db.prepare(`SELECT id FROM session_message WHERE session_id = ? AND type = 'assistant' ORDER BY seq DESC LIMIT 1`).pluck().get(v2Tour) as string,
        imageRead: v2Shape(v2Image, 'reasoning,read'),
        imageUser: firstOf('session_message', v2Image, `type = 'user'`),
      },
    }
    const missing = JSON.stringify(ids, (_k, v: unknown) => (v === undefined || v === null ? 'MISSING' : v))
    if (missing.includes('MISSING')) throw new Error(`the real fixture lacks a conversation the pruning tests need: ${missing}`)
    return ids
  } finally {
    db.close()
  }
}
