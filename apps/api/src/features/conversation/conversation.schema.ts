import { LIMITS } from '@loupe/domain'
import { z } from 'zod'

const hasNoControl = (text: string) => !/\p{Cc}/u.test(text)

/** A directory as OpenCode stores it: absolute, no control characters. It must also be a location the opened database knows. */
export const locationDirectory = z.string().min(1).max(4096).startsWith('/').refine(hasNoControl, 'no control characters')

/** Agent names as OpenCode's agent files give them; validated again against the server's catalog. */
const agentName = z.string().min(1).max(64).regex(/^[A-Za-z0-9][\w.-]*$/)
const modelPart = z.string().min(1).max(256).regex(/^\S+$/).refine(hasNoControl, 'no control characters')

export const imagesConversationInput = z.strictObject({
  directory: locationDirectory,
  mode: z.enum(['open', 'new']),
  title: z.string().trim().min(1).max(LIMITS.titleChars).optional(),
  agent: agentName.optional(),
  model: z.strictObject({ providerID: modelPart, id: modelPart, variant: modelPart.optional() }).optional(),
})
export type ImagesConversationInput = z.infer<typeof imagesConversationInput>

export const locationInput = z.strictObject({ directory: locationDirectory })
export type LocationInput = z.infer<typeof locationInput>
