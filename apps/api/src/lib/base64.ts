/**
 * The same answer as the domain's regular expression, faster: Node's decoder skips
 * characters outside the alphabet and stops at padding, so a body that is not pure base64 decodes to
 * fewer bytes than its length promises. `-` and `_` (base64url) are accepted by that decoder, so
 * they are looked for separately.
 */
export function isBase64BodyFast(body: string): boolean {
  if (body.length % 4 !== 0) return false
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0
  return Buffer.from(body, 'base64').length === (body.length / 4) * 3 - padding &&
    body.indexOf('-') < 0 && body.indexOf('_') < 0
}
