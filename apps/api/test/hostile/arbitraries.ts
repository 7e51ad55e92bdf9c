import fc from 'fast-check'

/** Field names of every procedure's input, so random objects often hit real keys with wrong values. */
const FIELD_NAMES = [
  'sessionID', 'messageID', 'storage', 'cursor', 'limit', 'search', 'projectID', 'anchor', 'around', 'includeArchived',
  'rootsOnly', 'revision', 'indexes', 'candidates', 'query', 'kinds', 'tool', 'since', 'until', 'directory', 'mode',
  'title', 'agent', 'model', 'target', 'prompts', 'expiresIn', 'shareID', 'id', 'path', 'sql', '__proto__', 'constructor',
]

/** Strings an attacker or a confused client sends: SQL, paths, huge, control characters, other scripts. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    "'; DROP TABLE session; --", '" OR 1=1 --', '../../../../etc/passwd', '/etc/shadow', 'C:\\Windows\\system32',
    'ses_', 'msg_' + 'a'.repeat(300), '\u0000\u0001\u001f', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ✓ 日本語 عربى', 'NEAR(a b)', '"unbalanced', '*', '((', '-', '',
    'data:image/png;base64,AAAA', 'media:' + 'f'.repeat(64), 'a'.repeat(64), 'file:///etc/passwd', 'http://169.254.169.254/',
  ),
  fc.string({ maxLength: 64 }),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
)

const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.integer({ min: 0, max: 200_000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
    fc.dictionary(fc.constantFrom(...FIELD_NAMES), tie('value'), { maxKeys: 4 }),
  ),
})).value

/** Inputs for any procedure: mostly objects with plausible keys and hostile values, sometimes anything at all. */
export const hostileInput: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileValue, { maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.anything() },
  { weight: 1, arbitrary: hostileValue },
)
