import { ID_PATTERN, type StorageGeneration } from '@loupe/domain'

export type SessionTab = 'transcript' | 'bytes' | 'gallery'

export interface SessionLink {
  id: string
  storage: StorageGeneration
}

export interface SessionLinkOptions {
  tab?: SessionTab
  /** Scroll to this message. */
  m?: string
  /** And highlight this part: a 1.x part id, or a 2.x content index. */
  part?: string
  /** And mark this search's matches inside the part, or without a part in the session's title. */
  hl?: string
}

/**
 * The one URL shape for a session: `/sessions/<id>[/bytes|/gallery]?storage=v1|v2[&m=…&part=…&hl=…]`.
 * A session is (storage, id): a 2.x file can hold the same id in both generations.
 */
export function sessionHref(session: SessionLink, options: SessionLinkOptions = {}): string {
  const tab = options.tab && options.tab !== 'transcript' ? `/${options.tab}` : ''
  const query = new URLSearchParams({ storage: session.storage })
  if (options.m) query.set('m', options.m)
  if (options.part) query.set('part', options.part)
  if (options.hl) query.set('hl', options.hl)
  return `/sessions/${encodeURIComponent(session.id)}${tab}?${query}`
}

export const isStorage = (value: unknown): value is StorageGeneration => value === 'v1' || value === 'v2'

/** Ids from the URL are only used when they look like OpenCode ids. */
export const isValidId = (value: unknown): value is string => typeof value === 'string' && ID_PATTERN.test(value)
