import { TZ_OFFSET_MINUTES_MAX, USAGE_GROUPS, USAGE_INTERVALS } from '@loupe/domain'
import { z } from 'zod'

/**
 * The range in days back from today (null: all time), the bucket size, the stacking, and the
 * client's offset from UTC in minutes (east positive, e.g. 60 for Paris in winter) at which days begin.
 */
export const summarizeUsageInput = z.strictObject({
  days: z.union([z.literal(30), z.literal(90), z.literal(365), z.null()]).default(30),
  interval: z.enum(USAGE_INTERVALS).default('day'),
  groupBy: z.enum(USAGE_GROUPS).default('model'),
  tzOffsetMinutes: z.number().int().min(-TZ_OFFSET_MINUTES_MAX).max(TZ_OFFSET_MINUTES_MAX).default(0),
})
export type SummarizeUsageInput = z.infer<typeof summarizeUsageInput>
