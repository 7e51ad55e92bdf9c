/** The design's numbers (SESSION_PRUNING.md), named once. Bytes unless the name says otherwise. */
export const LIMITS = {
  requestBodyBytes: 1024 * 1024,
  messageStoredBytes: 16 * 1024 * 1024,
  messageSerializedBytes: 16 * 1024 * 1024,
  pruneIndexesMax: 100_001,
  pruneIndexMax: 100_000,
  pruneBatchMax: 16,
  idLength: 256,
  cursorChars: 4096,
  titleChars: 512,
  pageSizeMax: 200,
  transcriptPageBytes: 4 * 1024 * 1024,
  galleryPageMessages: 32,
  galleryPageStoredBytes: 32 * 1024 * 1024,
  galleryPageEntries: 64,
  galleryPageSerializedBytes: 1024 * 1024,
  imagesConversationScanRoots: 20_000,
} as const

/** Byte units for display and budgets. */
export const KiB = 1024
export const MiB = 1024 * 1024

/** "16.05 MiB": two decimals, rounded up, so a size just over a MiB limit never reads as equal to it. */
export const mibText = (bytes: number): string => `${(Math.ceil((bytes / MiB) * 100) / 100).toFixed(2)} MiB`

/** Why Loupe leaves a stored message of this size alone (the same words wherever it refuses one). */
export const overEditLimit = (bytes: number): string =>
  `This message is ${mibText(bytes)}, over the ${LIMITS.messageStoredBytes / MiB} MiB Loupe edits.`
