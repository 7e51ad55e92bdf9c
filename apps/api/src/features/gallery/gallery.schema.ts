import { LIMITS, type GalleryMime, type GenerationOutcome, type ReferenceRefusal } from '@loupe/domain'
import { z } from 'zod'
import { sessionIdSchema, storageSchema } from '../../store/session-ids.schema.js'

export const targetSchema = z.string().min(1).max(1024).regex(/^[A-Za-z0-9_-]+$/)

export const galleryImagesInput = z.strictObject({
  sessionID: sessionIdSchema,
  storage: storageSchema.optional(),
  cursor: z.string().min(1).max(LIMITS.cursorChars).optional(),
  prompts: z.boolean().optional(),
})
export type GalleryImagesInput = z.infer<typeof galleryImagesInput>

export const imageReferenceInput = z.strictObject({
  sessionID: sessionIdSchema,
  storage: storageSchema.optional(),
  target: targetSchema,
})
export type ImageReferenceInput = z.infer<typeof imageReferenceInput>

/** Prompt and model: only in a root session marked `codenomad.companion: images`, only for the owner. */
export interface PromptFields {
  prompt?: string
  promptTruncated?: boolean
  model?: string
}

/** Where an entry sits in the transcript (the owner's link into it); never sent on share links. */
export interface EntryLocation {
  messageID: string
  part: number
}

/** An image file. `origin: generated` only when the proof rules hold; paths and ids never appear. */
export interface ImageEntry extends PromptFields, Partial<EntryLocation> {
  kind: 'image'
  target: string
  source: 'read' | 'pasted'
  origin: 'generated' | 'unverifiable'
  mime: GalleryMime
  /** Decoded size in bytes (from the stored form, never by loading a blob). */
  bytes: number
  /** The bytes can be served (an embedded data URL of at most 8 MiB whose type matches). */
  available: boolean
  /** The file's base name, for display and download. */
  name: string | null
  time: number
  generationKey?: string
  parentKeys?: string[]
  otherRefs?: number
}

export type NativeStatus = 'streaming' | 'pending' | 'running' | 'completed' | 'error' | 'unknown'

/** An `experimental_image_generate` call: its native status and, when established, its notice's outcome. */
export interface GenerationEntry extends PromptFields, Partial<EntryLocation> {
  kind: 'generation'
  target: string
  status: NativeStatus
  outcome: GenerationOutcome
  /** Present when the call has a job (the key proven images point to). */
  generationKey: string | null
  time: number
}

export type GalleryEntry = ImageEntry | GenerationEntry

export type GalleryPage =
  | {
      status: 'page'
      entries: GalleryEntry[]
      /** The next page, or null when the gallery is complete. */
      cursor: string | null
      /** Whether `prompts: true` was granted for this session. */
      promptsGranted: boolean
      /** What this page read: rows and their stored bytes. */
      scanned: { rows: number; bytes: number }
    }
  | {
      status: 'blocked'
      reason: 'limit'
      /** The message too large to read (over 16 MiB) and its size. */
      messageID: string
      bytes: number
      /** A cursor past that message, so the rest of the gallery can still be paged. */
      resume: string | null
    }
  | { status: 'blocked'; reason: 'conflict' }

export type ImageReference = { status: 'reference'; path: string } | { status: 'refused'; reason: ReferenceRefusal }
