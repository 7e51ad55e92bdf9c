import { publicProcedure, router } from '../../trpc/init.js'
import { doctorStatus } from './doctor.service.js'
import { reclaimCheck } from './reclaim.service.js'
import { removeBackup, startReclaim } from './reclaim-start.service.js'
import { doctorDepsOf, reclaimDepsOf } from './storage-deps.js'
import { doctorInput, reclaimInput, removeBackupInput } from './storage.schema.js'
import { describeStorage } from './storage.service.js'

export const storageRouter = router({
  info: publicProcedure.query(({ ctx }) => describeStorage(ctx.deps)),
  /** Where the bytes of the whole file are: the cached report, or the running scan's progress. */
  doctor: publicProcedure.input(doctorInput).query(({ ctx, input }) => doctorStatus(doctorDepsOf(ctx.deps), input)),
  /** Sizes, free pages and disk, who holds the file, backups, and the running or last reclaim. */
  reclaimStatus: publicProcedure.query(({ ctx }) => reclaimCheck(reclaimDepsOf(ctx.deps))),
  reclaim: publicProcedure.input(reclaimInput).mutation(({ ctx, input }) => startReclaim(reclaimDepsOf(ctx.deps), input)),
  removeBackup: publicProcedure.input(removeBackupInput).mutation(({ ctx, input }) => removeBackup(ctx.deps.opencode.path, input)),
})
