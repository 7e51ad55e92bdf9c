import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { designExcludeRule, escapeGitGlob, ignorePatterns, planExcludeAppend, readIgnoreLine } from './git-exclude.js'

describe('designExcludeRule', () => {
  it.each([
    ['the worktree top', '', '.codenomad/design/'],
    ['a nested location', 'apps/web/', '/apps/web/.codenomad/design/'],
    ['a star', 'a*b/', '/a\\*b/.codenomad/design/'],
    ['a question mark', 'what?/', '/what\\?/.codenomad/design/'],
    ['a bracket', 'v[1]/', '/v\\[1]/.codenomad/design/'],
    ['a backslash', 'back\\slash/', '/back\\\\slash/.codenomad/design/'],
    ['! and # at a segment start', '!neg/#hash/', '/!neg/#hash/.codenomad/design/'],
    ['spaces and non-ASCII', 'mon dossier/ü/', '/mon dossier/ü/.codenomad/design/'],
  ])('%s', (_name, prefix, rule) => {
    expect(designExcludeRule(prefix)).toEqual({ ok: true, value: rule })
  })

  it.each([
    ['a line feed', 'a\nb/'],
    ['a carriage return', 'a\rb/'],
    ['NUL', 'a\0b/'],
    ['no trailing slash', 'apps'],
    ['an absolute path', '/apps/'],
    ['an empty segment', 'a//b/'],
  ])('refuses a prefix with %s', (_name, prefix) => {
    expect(designExcludeRule(prefix)).toEqual({ ok: false, error: 'unrepresentable' })
  })

  it('escapes every glob character and nothing else (property)', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const escaped = escapeGitGlob(text)
        expect(escaped.replace(/\\([\\*?[])/g, '$1')).toBe(text)
        expect(escaped.length - text.length).toBe((text.match(/[\\*?[]/g) ?? []).length)
      }),
    )
  })
})

describe('readIgnoreLine: a line as git reads it', () => {
  it.each([
    ['a plain pattern', '.codenomad/design/', '.codenomad/design/'],
    ['a final \\r', '.codenomad/design/\r', '.codenomad/design/'],
    ['trailing spaces', '.codenomad/design/   ', '.codenomad/design/'],
    ['trailing spaces then \\r', '.codenomad/design/  \r', '.codenomad/design/'],
    ['an escaped trailing space', '.codenomad/design/\\ ', '.codenomad/design/\\ '],
    ['an escaped space then spaces', '.codenomad/design/\\   ', '.codenomad/design/\\ '],
    ['a trailing tab (kept)', '.codenomad/design/\t', '.codenomad/design/\t'],
    ['leading whitespace (part of the pattern)', '  .codenomad/design/', '  .codenomad/design/'],
    ['a dangling backslash', 'a\\', 'a\\'],
    ['a negation', '!.codenomad/design/', '!.codenomad/design/'],
    ['an escaped hash', '\\#file', '\\#file'],
    ['only spaces', '   ', ''],
  ])('%s', (_name, line, pattern) => {
    expect(readIgnoreLine(line)).toBe(pattern)
  })

  it.each([
    ['an empty line', ''],
    ['a lone \\r', '\r'],
    ['a comment', '# codenomad'],
    ['a comment without space', '#.codenomad/design/'],
  ])('skips %s', (_name, line) => {
    expect(readIgnoreLine(line)).toBeNull()
  })

  it('reads a whole file, skipping a BOM and reading a last line without a line break', () => {
    expect(ignorePatterns('\uFEFF# head\r\n*.log\r\n\r\n/build  \nlast')).toEqual(['*.log', '/build', 'last'])
  })
})

describe('planExcludeAppend', () => {
  const rule = '.codenomad/design/'
  const nested = '/apps/web/.codenomad/design/'

  it.each([
    ['an empty file', '', '# codenomad\n.codenomad/design/\n'],
    ["git init's template", '# git ls-files --others --exclude-from=.git/info/exclude\n# *~\n', '# codenomad\n.codenomad/design/\n'],
    ['a file without a final line break', '*.log', '\n# codenomad\n.codenomad/design/\n'],
    ['a CRLF file', '*.log\r\n', '# codenomad\r\n.codenomad/design/\r\n'],
    ['a CRLF file without a final line break', '*.log\r\n*.tmp', '\r\n# codenomad\r\n.codenomad/design/\r\n'],
    ['a file whose last block is ours', '*.log\n\n# codenomad\n/apps/web/.codenomad/design/\n', '.codenomad/design/\n'],
    ['a file where our block is followed by a blank line', '# codenomad\n/x/.codenomad/design/\n\n', '# codenomad\n.codenomad/design/\n'],
    ['a file where another comment follows ours', '# codenomad\n/x/.codenomad/design/\n# mine\n*.o\n', '# codenomad\n.codenomad/design/\n'],
    ['a leading-whitespace variant (not equivalent)', '  .codenomad/design/\n', '# codenomad\n.codenomad/design/\n'],
    ['an escaped-space variant (not equivalent)', '.codenomad/design/\\ \n', '# codenomad\n.codenomad/design/\n'],
    ['a negated rule (not equivalent)', '!.codenomad/design/\n', '# codenomad\n.codenomad/design/\n'],
    ['the rule as a comment (not a pattern)', '#.codenomad/design/\n', '# codenomad\n.codenomad/design/\n'],
  ])('appends to %s', (_name, existing, text) => {
    expect(planExcludeAppend(existing, rule)).toEqual({ kind: 'append', text })
  })

  it.each([
    ['the same line', '# codenomad\n.codenomad/design/\n'],
    ['the line with a final \\r', '.codenomad/design/\r\n'],
    ['the line with trailing spaces', '*.log\n.codenomad/design/   \n'],
    ['the line with trailing spaces and \\r', '.codenomad/design/ \r\n'],
    ['the line last, without a line break', '*.log\n.codenomad/design/'],
    ['the line after a BOM', '\uFEFF.codenomad/design/\n'],
  ])('adds nothing when the file holds %s', (_name, existing) => {
    expect(planExcludeAppend(existing, rule)).toEqual({ kind: 'present' })
  })

  it('tells a nested rule from the top-level one', () => {
    expect(planExcludeAppend('.codenomad/design/\n', nested)).toEqual({ kind: 'append', text: '# codenomad\n/apps/web/.codenomad/design/\n' })
    expect(planExcludeAppend('/apps/web/.codenomad/design/\n', rule).kind).toBe('append')
  })

  it('only ever appends, and the result then holds the rule exactly once (property)', () => {
    const line = fc.oneof(fc.constantFrom(rule, `${rule}\r`, `${rule}  `, '# codenomad', '', '*.log', '  x', '\\#y'), fc.string({ maxLength: 12 }))
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.boolean(), (lines, finalBreak) => {
        const existing = lines.join('\n') + (finalBreak && lines.length ? '\n' : '')
        const plan = planExcludeAppend(existing, rule)
        const after = plan.kind === 'append' ? existing + plan.text : existing
        expect(ignorePatterns(after)).toContain(rule)
        expect(planExcludeAppend(after, rule)).toEqual({ kind: 'present' })
        if (plan.kind === 'append') expect(ignorePatterns(after).slice(0, -1)).toEqual(ignorePatterns(existing))
      }),
    )
  })
})
