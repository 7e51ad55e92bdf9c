import { describe, expect, it } from 'vitest'
import { toolOptions } from './search-filters'

describe('the tool menu', () => {
  it("offers history's own tools by name, most used first, custom ones included; their call counts only as a hint", () => {
    expect(toolOptions([{ name: 'bash', docs: 1234 }, { name: 'github_search', docs: 1 }], undefined)).toEqual([
      { value: 'bash', label: 'bash', hint: '1.2k calls in all history' },
      { value: 'github_search', label: 'github_search', hint: '1 call in all history' },
    ])
  })

  it('offers the built-in tools until the index is ready, and always the current filter', () => {
    expect(toolOptions(null, undefined).map((o) => o.value)).toContain('todowrite')
    expect(toolOptions(null, 'mcp_jira')[0]).toEqual({ value: 'mcp_jira', label: 'mcp_jira' })
    expect(toolOptions([{ name: 'bash', docs: 2 }], 'bash')).toHaveLength(1)
  })
})
