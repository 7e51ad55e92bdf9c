import { describe, expect, it } from 'vitest'
import {
  generationOutcome,
  proveImage,
  referenceGeneration,
  referenceRead,
  truncateUtf8,
  type ProofCall,
  type ProofContext,
  type ProofNotice,
  type ProofRead,
} from './provenance.js'

/**
 * The base story: a generation in row 0 writes `out/hero` (job-1, ran 100, completed 110), its notice
 * "Saved image: out/hero.png" arrives at 150, and row 1 reads /p/out/hero.png over [200, 210].
 * Each case changes one thing; `proves` says whether the read must still be proven.
 */
const DIR = '/p'
const HERO = '/p/out/hero.png'

const call = (over: Partial<ProofCall> = {}): ProofCall => ({
  key: 'key-1',
  row: 0,
  status: 'completed',
  jobID: 'job-1',
  stem: '/p/out/hero',
  parents: [],
  ran: 100,
  completed: 110,
  ...over,
})
const notice = (over: Partial<ProofNotice> = {}): ProofNotice => ({ time: 150, jobID: 'job-1', state: 'completed', file: HERO, ...over })
const rows = (n: number, bytes = 1000) => Array.from({ length: n }, () => ({ bytes, readable: true }))

interface Story {
  ctx: ProofContext
  read: ProofRead
}

const base = (): Story => ({
  ctx: {
    directory: DIR,
    rows: rows(2),
    reachesStart: true,
    reachesEnd: true,
    calls: [call()],
    scan: { complete: true, notices: [notice()], undecoded: [] },
  },
  read: { row: 1, file: HERO, ran: 200, end: 210 },
})

type Change = (s: Story) => void
const cases: [string, Change, boolean][] = [
  ['the base story', () => {}, true],
  // the notice scan
  ['an incomplete notice scan', (s) => void (s.ctx.scan.complete = false), false],
  ['an undecoded row dated before the read ends', (s) => void s.ctx.scan.undecoded.push(205), false],
  ['an undecoded row dated exactly at the read end', (s) => void s.ctx.scan.undecoded.push(210), false],
  ['an undecoded row dated after the read ends', (s) => void s.ctx.scan.undecoded.push(211), true],
  // the item's range
  ['a range the covered rows do not reach (session starts sooner is unknown)', (s) => void (s.ctx.reachesStart = false), false],
  ['a range that reaches the session start within 31 rows', (s) => void (s.ctx.reachesStart = true), true],
  ['an oversized row inside the range', (s) => void (s.ctx.rows[0] = { bytes: 17 << 20, readable: false }), false],
  ['a range over 32 MiB', (s) => void (s.ctx.rows = rows(2, 17 << 20)), false],
  [
    'the generating call 32 rows back (outside the range)',
    (s) => {
      s.ctx.rows = rows(33)
      s.read.row = 32
    },
    false,
  ],
  [
    'the generating call 31 rows back (inside the range)',
    (s) => {
      s.ctx.rows = rows(32)
      s.read.row = 31
    },
    true,
  ],
  // exactly one call that may write F
  ['a second completed call to the same stem', (s) => void s.ctx.calls.push(call({ key: 'key-2', jobID: 'job-2', ran: 120, completed: 125 })), false],
  ['a second completed call to another stem', (s) => void s.ctx.calls.push(call({ key: 'key-2', jobID: 'job-2', stem: '/p/out/other' })), true],
  ['a running call (may write any file)', (s) => void s.ctx.calls.push(call({ key: 'key-2', status: 'running', stem: undefined, jobID: undefined, completed: undefined })), false],
  ['a completed call without metadata.path', (s) => void s.ctx.calls.push(call({ key: 'key-2', jobID: 'job-2', stem: undefined })), false],
  ['a call with an unknown start', (s) => void s.ctx.calls.push(call({ key: 'key-2', status: 'streaming', stem: undefined, jobID: undefined, ran: undefined, completed: undefined })), false],
  ['a same-stem call that starts after the read ends', (s) => void s.ctx.calls.push(call({ key: 'key-2', jobID: 'job-2', row: 1, ran: 220, completed: 230 })), true],
  [
    'a failed attempt settled before the retry started',
    (s) => {
      s.ctx.calls = [call({ key: 'key-0', jobID: 'job-0', ran: 50, completed: 60 }), call({ ran: 100 })]
      s.ctx.scan.notices.push(notice({ jobID: 'job-0', state: 'error', time: 90, file: undefined }))
    },
    true,
  ],
  [
    'a failed attempt whose notice came after the retry started',
    (s) => {
      s.ctx.calls = [call({ key: 'key-0', jobID: 'job-0', ran: 50, completed: 60 }), call({ ran: 100 })]
      s.ctx.scan.notices.push(notice({ jobID: 'job-0', state: 'error', time: 105, file: undefined }))
    },
    false,
  ],
  [
    'a cancelled attempt before the retry (still counts)',
    (s) => {
      s.ctx.calls = [call({ key: 'key-0', jobID: 'job-0', ran: 50, completed: 60 }), call({ ran: 100 })]
      s.ctx.scan.notices.push(notice({ jobID: 'job-0', state: 'cancelled', time: 90, file: undefined }))
    },
    false,
  ],
  [
    'a failed attempt with two notices (not a single one)',
    (s) => {
      s.ctx.calls = [call({ key: 'key-0', jobID: 'job-0', ran: 50, completed: 60 }), call({ ran: 100 })]
      s.ctx.scan.notices.push(notice({ jobID: 'job-0', state: 'error', time: 90, file: undefined }))
      s.ctx.scan.notices.push(notice({ jobID: 'job-0', state: 'error', time: 91, file: undefined }))
    },
    false,
  ],
  [
    'overlapping writers in one row (parallel calls to the same stem)',
    (s) => void s.ctx.calls.push(call({ key: 'key-2', jobID: 'job-2', ran: 101, completed: 111 })),
    false,
  ],
  // the call itself
  ['a call that is not completed', (s) => void (s.ctx.calls[0]!.status = 'error'), false],
  ['a call without a jobID', (s) => void (s.ctx.calls[0]!.jobID = undefined), false],
  ['a call that completed after the read began', (s) => void (s.ctx.calls[0]!.completed = 200), false],
  ['a call with no start time', (s) => void (s.ctx.calls[0]!.ran = undefined), false],
  // its single decoded notice
  ['no notice for the job', (s) => void (s.ctx.scan.notices = []), false],
  ['two notices for the job', (s) => void s.ctx.scan.notices.push(notice({ time: 160 })), false],
  ['a notice naming another file', (s) => void (s.ctx.scan.notices[0]!.file = '/p/out/hero.webp'), false],
  ['a notice reporting error', (s) => void (s.ctx.scan.notices[0]!.state = 'error'), false],
  ['a notice dated before the call started', (s) => void (s.ctx.scan.notices[0]!.time = 99), false],
  ['a notice dated after the read began', (s) => void (s.ctx.scan.notices[0]!.time = 201), false],
  ['a notice dated exactly when the read began', (s) => void (s.ctx.scan.notices[0]!.time = 200), true],
  // no other completed notice names F until the read ends
  ['another completed notice naming F before the read ends', (s) => void s.ctx.scan.notices.push(notice({ jobID: 'job-9', time: 205 })), false],
  ['another notice naming F that reports error', (s) => void s.ctx.scan.notices.push(notice({ jobID: 'job-9', time: 205, state: 'error' })), true],
  ['another completed notice naming F before this one', (s) => void s.ctx.scan.notices.push(notice({ jobID: 'job-9', time: 140 })), true],
  ['another completed notice naming F after the read ends', (s) => void s.ctx.scan.notices.push(notice({ jobID: 'job-9', time: 211 })), true],
  // the location
  ['a read outside the session directory', (s) => {
    s.read.file = '/elsewhere/out/hero.png'
    s.ctx.calls[0]!.stem = '/elsewhere/out/hero'
    s.ctx.scan.notices[0]!.file = '/elsewhere/out/hero.png'
  }, false],
  ['a read with no file name', (s) => void (s.read.file = undefined), false],
  ['a read with no time', (s) => void (s.read.ran = undefined), false],
]

describe('proveImage: every proof rule', () => {
  it.each(cases)('%s', (_name, change, proves) => {
    const story = base()
    change(story)
    const proof = proveImage(story.ctx, story.read)
    expect(proof.origin).toBe(proves ? 'generated' : 'unverifiable')
    if (proof.origin === 'generated') expect(proof.generationKey).toBe(story.ctx.calls.find((c) => c.ran === 100)?.key)
  })
})

describe('proveImage: lineage', () => {
  /** Row 0: job-0 writes in/sketch.png; row 1: job-1 turns it into out/hero; row 2 reads out/hero.png. */
  const lineage = (parents: (string | undefined)[], parentNotice = true): Story => {
    const s = base()
    s.ctx.rows = rows(3)
    s.ctx.calls = [
      call({ key: 'key-0', row: 0, jobID: 'job-0', stem: '/p/in/sketch', ran: 10, completed: 20 }),
      call({ row: 1, parents }),
    ]
    s.ctx.scan.notices = [notice()]
    if (parentNotice) s.ctx.scan.notices.push(notice({ jobID: 'job-0', time: 30, file: '/p/in/sketch.png' }))
    s.read.row = 2
    return s
  }

  it('gives the proven parent generation key', () => {
    const s = lineage(['/p/in/sketch.png'])
    expect(proveImage(s.ctx, s.read)).toMatchObject({ origin: 'generated', generationKey: 'key-1', parentKeys: ['key-0'], otherRefs: 0 })
  })

  it('counts a parent it cannot prove as another reference', () => {
    const s = lineage(['/p/in/sketch.png'], false)
    expect(proveImage(s.ctx, s.read)).toMatchObject({ origin: 'generated', parentKeys: [], otherRefs: 1 })
  })

  it('counts a parent outside the location, or unresolvable, as another reference (no label)', () => {
    const s = lineage(['/etc/sketch.png', undefined])
    expect(proveImage(s.ctx, s.read)).toMatchObject({ parentKeys: [], otherRefs: 2 })
  })

  it('leaves an in-place edit unverifiable when both writers of the stem are in the read\'s range', () => {
    const s = lineage(['/p/out/hero.png'])
    s.ctx.calls[0]!.stem = '/p/out/hero'
    s.ctx.scan.notices[1]!.file = HERO
    expect(proveImage(s.ctx, s.read)).toEqual({ origin: 'unverifiable' })
  })

  it('does not count the proven call as a writer of its own input (in-place edit, earlier writer out of the read\'s range)', () => {
    const s = lineage(['/p/out/hero.png'])
    s.ctx.rows = rows(33)
    s.ctx.calls[0]!.stem = '/p/out/hero'
    s.ctx.calls[1]!.row = 31
    s.ctx.scan.notices[1]!.file = HERO
    s.read.row = 32
    expect(proveImage(s.ctx, s.read)).toMatchObject({ origin: 'generated', generationKey: 'key-1', parentKeys: ['key-0'], otherRefs: 0 })
  })
})

describe('generationOutcome', () => {
  const outcome = (change: Change) => {
    const s = base()
    change(s)
    return generationOutcome(s.ctx, s.ctx.calls[0]!)
  }
  it.each([
    ['its unique notice completed', () => {}, 'completed'],
    ['its unique notice reports error', (s: Story) => void (s.ctx.scan.notices[0]!.state = 'error'), 'error'],
    ['its unique notice reports cancelled', (s: Story) => void (s.ctx.scan.notices[0]!.state = 'cancelled'), 'cancelled'],
    ['no notice yet', (s: Story) => void (s.ctx.scan.notices = []), 'unknown'],
    ['two notices', (s: Story) => void s.ctx.scan.notices.push(notice({ state: 'error' })), 'unknown'],
    ['an incomplete scan', (s: Story) => void (s.ctx.scan.complete = false), 'unknown'],
    ['an undecoded row after it started', (s: Story) => void s.ctx.scan.undecoded.push(120), 'unknown'],
    ['an undecoded row before it started', (s: Story) => void s.ctx.scan.undecoded.push(90), 'completed'],
    ['no jobID', (s: Story) => void (s.ctx.calls[0]!.jobID = undefined), 'unknown'],
  ] as [string, Change, string][])('%s → %s', (_name, change, expected) => {
    expect(outcome(change)).toBe(expected)
  })
})

describe('referenceRead: no later write', () => {
  const answer = (change: Change) => {
    const s = base()
    change(s)
    return referenceRead(s.ctx, s.read)
  }
  it.each([
    ['the base story', () => {}, { status: 'reference', path: 'out/hero.png' }],
    ['a file outside the session directory', (s: Story) => void (s.read.file = '/tmp/hero.png'), { status: 'refused', reason: 'outside' }],
    ['a later call to the same stem', (s: Story) => void s.ctx.calls.push(call({ key: 'k', row: 1, jobID: 'j', ran: 220 })), { status: 'refused', reason: 'changed' }],
    ['a later notice naming the file', (s: Story) => void s.ctx.scan.notices.push(notice({ jobID: 'j', time: 300 })), { status: 'refused', reason: 'changed' }],
    ['a later call that may write any file', (s: Story) => void s.ctx.calls.push(call({ key: 'k', row: 1, status: 'running', stem: undefined, ran: 220 })), { status: 'refused', reason: 'unverifiable' }],
    ['a call with an unknown start', (s: Story) => void s.ctx.calls.push(call({ key: 'k', row: 1, status: 'pending', stem: undefined, ran: undefined })), { status: 'refused', reason: 'unverifiable' }],
    ['a later call to another stem', (s: Story) => void s.ctx.calls.push(call({ key: 'k', row: 1, jobID: 'j', stem: '/p/x', ran: 220 })), { status: 'reference', path: 'out/hero.png' }],
    ['an undecoded row after the read started', (s: Story) => void s.ctx.scan.undecoded.push(400), { status: 'refused', reason: 'unverifiable' }],
    ['an incomplete scan', (s: Story) => void (s.ctx.scan.complete = false), { status: 'refused', reason: 'unverifiable' }],
    ['newest rows that do not reach the read', (s: Story) => void s.ctx.rows.push(...rows(32)), { status: 'refused', reason: 'unverifiable' }],
    ['newest rows that reach the read within 32', (s: Story) => void s.ctx.rows.push(...rows(30)), { status: 'reference', path: 'out/hero.png' }],
    ['covered rows that stop before the newest row', (s: Story) => void (s.ctx.reachesEnd = false), { status: 'refused', reason: 'unverifiable' }],
  ] as [string, Change, unknown][])('%s', (_name, change, expected) => {
    expect(answer(change)).toEqual(expected)
  })
})

describe('referenceGeneration', () => {
  const answer = (change: Change) => {
    const s = base()
    change(s)
    return referenceGeneration(s.ctx, s.ctx.calls[0]!)
  }
  it.each([
    ['the file its unique notice names', () => {}, { status: 'reference', path: 'out/hero.png' }],
    ['no notice', (s: Story) => void (s.ctx.scan.notices = []), { status: 'refused', reason: 'unverifiable' }],
    ['an error notice', (s: Story) => void (s.ctx.scan.notices[0]!.state = 'error'), { status: 'refused', reason: 'unverifiable' }],
    ['a notice naming a file outside', (s: Story) => void (s.ctx.scan.notices[0]!.file = '/tmp/hero.png'), { status: 'refused', reason: 'outside' }],
    ['a scan that cuts its range', (s: Story) => void (s.ctx.reachesStart = false), { status: 'refused', reason: 'unverifiable' }],
    [
      'a rival writer started before its notice without completion',
      (s: Story) => void s.ctx.calls.push(call({ key: 'k', jobID: 'j', status: 'running', stem: undefined, ran: 120, completed: undefined })),
      { status: 'refused', reason: 'unverifiable' },
    ],
    [
      'a rival writer started before its notice without a notice of its own',
      (s: Story) => void s.ctx.calls.push(call({ key: 'k', jobID: 'j', stem: undefined, ran: 120, completed: 125 })),
      { status: 'refused', reason: 'unverifiable' },
    ],
    [
      'a settled rival writer (completed, with its own notice)',
      (s: Story) => {
        s.ctx.calls.push(call({ key: 'k', jobID: 'j', stem: '/p/out/hero', ran: 120, completed: 125 }))
        s.ctx.scan.notices.push(notice({ jobID: 'j', time: 130, state: 'error', file: undefined }))
      },
      { status: 'reference', path: 'out/hero.png' },
    ],
    ['a later call to the same stem', (s: Story) => void s.ctx.calls.push(call({ key: 'k', row: 1, jobID: 'j', ran: 160 })), { status: 'refused', reason: 'changed' }],
    ['a later notice naming the file', (s: Story) => void s.ctx.scan.notices.push(notice({ jobID: 'j', time: 170 })), { status: 'refused', reason: 'changed' }],
  ] as [string, Change, unknown][])('%s', (_name, change, expected) => {
    expect(answer(change)).toEqual(expected)
  })
})

describe('truncateUtf8', () => {
  it('keeps text within the budget whole', () => {
    expect(truncateUtf8('héllo', 6)).toEqual({ text: 'héllo', truncated: false })
  })
  it('cuts at a character boundary, never inside a code point', () => {
    expect(truncateUtf8('ab€', 4)).toEqual({ text: 'ab', truncated: true })
    expect(truncateUtf8('a😀b', 4)).toEqual({ text: 'a', truncated: true })
    expect(truncateUtf8('a😀b', 5)).toEqual({ text: 'a😀', truncated: true })
  })
  it('defaults to 8 KiB', () => {
    expect(truncateUtf8('x'.repeat(9000)).text).toHaveLength(8192)
  })
})
