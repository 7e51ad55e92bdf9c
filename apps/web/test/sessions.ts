import type { Api } from '../src/lib/trpc'

/** Look a fixture session up by title through the real api. */
export async function sessionByTitle(api: Api, title: string) {
  const { sessions } = await api.sessions.list.query({ search: title, rootsOnly: false, limit: 10 })
  const session = sessions.find((s) => s.title === title)
  if (!session) throw new Error(`fixture session ${title} not found`)
  return session
}
