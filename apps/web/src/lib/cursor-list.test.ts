import { createRoot, createSignal } from 'solid-js'
import { describe, expect, it } from 'vitest'
import { createCursorList } from './cursor-list'

type Page = { items: number[]; cursor: string | null; scan?: boolean }

/** Pages of a list of `total` numbers, `size` at a time; the cursor is the next offset. */
function pager(total: number, size: number, calls: Array<{ key: string; cursor: string | undefined }>, scan = false) {
  return async (key: string, cursor: string | undefined): Promise<Page> => {
    calls.push({ key, cursor })
    await Promise.resolve()
    if (key === 'fail') throw new Error('boom')
    const from = Number(cursor ?? 0)
    const to = Math.min(total, from + size)
    return { items: Array.from({ length: to - from }, (_, i) => from + i), cursor: to < total ? String(to) : null, scan }
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

function mount(fetch: (key: string, cursor: string | undefined) => Promise<Page>, fillMore?: (page: Page, items: number[]) => boolean) {
  return createRoot((dispose) => {
    const [key, setKey] = createSignal<string | null>('a')
    const list = createCursorList({ key, fetch: (k, c) => fetch(k, c), read: (p: Page) => p, fillMore, initialLoading: 'initial' })
    return { list, setKey, dispose }
  })
}

describe('createCursorList', () => {
  it('loads the first page, appends the next by cursor, and knows when it is done', async () => {
    const calls: Array<{ key: string; cursor: string | undefined }> = []
    const { list, dispose } = mount(pager(5, 2, calls))
    expect(list.loading()).toBe('initial')
    await settle()
    expect(list.items()).toEqual([0, 1])
    expect(list.hasMore()).toBe(true)
    list.loadMore()
    expect(list.loading()).toBe('more')
    await settle()
    list.loadMore()
    await settle()
    expect(list.items()).toEqual([0, 1, 2, 3, 4])
    expect(list.hasMore()).toBe(false)
    expect(calls.map((c) => c.cursor)).toEqual([undefined, '2', '4'])
    // Where each asked-for page began; a new first page forgets them.
    expect(list.moreFrom()).toEqual([2, 4])
    list.refresh()
    await settle()
    expect(list.moreFrom()).toEqual([])
    dispose()
  })

  it('starts again on a key change, clears on a null key, and drops items and the last page when a first page fails', async () => {
    const calls: Array<{ key: string; cursor: string | undefined }> = []
    const { list, setKey, dispose } = mount(pager(5, 2, calls))
    await settle()
    setKey('b')
    await settle()
    expect(calls.at(-1)).toEqual({ key: 'b', cursor: undefined })
    expect(list.items()).toEqual([0, 1])
    setKey(null)
    await settle()
    expect([list.items(), list.page(), list.loading(), list.hasMore()]).toEqual([[], undefined, false, false])
    setKey('a')
    await settle()
    expect(list.page()).toBeDefined()
    setKey('fail')
    await settle()
    // Nothing of the earlier key beside the error: no items, and no page to count them from.
    expect([list.items(), list.page()]).toEqual([[], undefined])
    expect((list.error() as Error).message).toBe('boom')
    dispose()
  })

  it('keeps asking during the first fill while fillMore says so, and not on later pages', async () => {
    const calls: Array<{ key: string; cursor: string | undefined }> = []
    const { list, dispose } = mount(pager(20, 2, calls, true), (page, items) => !!page.scan && items.length < 6)
    for (let i = 0; i < 5; i++) await settle()
    expect(list.items()).toEqual([0, 1, 2, 3, 4, 5])
    list.loadMore()
    for (let i = 0; i < 5; i++) await settle()
    expect(list.items()).toHaveLength(8)
    expect(calls).toHaveLength(4)
    dispose()
  })

  it('says what it shows is stale from a key change until that key\'s first page lands, not while paging or refreshing', async () => {
    const calls: Array<{ key: string; cursor: string | undefined }> = []
    const pages = pager(5, 2, calls)
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const { list, setKey, dispose } = mount(async (key, cursor) => {
      if (key === 'slow') await held
      return pages(key, cursor)
    })
    expect(list.stale()).toBe(false)
    await settle()
    list.loadMore()
    list.refresh()
    expect(list.stale()).toBe(false)
    await settle()
    setKey('slow')
    // The first key's items are still on screen, answering the question before.
    expect([list.stale(), list.items()]).toEqual([true, [0, 1]])
    await settle()
    expect(list.stale()).toBe(true)
    release()
    await settle()
    expect(list.stale()).toBe(false)
    setKey('fail')
    await settle()
    // Nothing shown, nothing stale.
    expect(list.stale()).toBe(false)
    dispose()
  })
})
