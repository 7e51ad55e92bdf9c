import { initTRPC, TRPCError } from '@trpc/server'
import { z } from 'zod'
import { AppError } from '../errors.js'
import type { Context } from './context.js'
import { APP_ERROR_TO_TRPC } from './errors.js'

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause
    const appCode = cause instanceof AppError ? cause.code : undefined
    const issues = cause instanceof z.ZodError ? z.flattenError(cause) : undefined
    const internal = shape.data.code === 'INTERNAL_SERVER_ERROR'
    const { stack: _stack, ...data } = shape.data
    return {
      ...shape,
      message: internal ? 'Internal error; see the Loupe server log.' : shape.message,
      data: { ...data, appCode: appCode ?? null, issues: issues ?? null },
    }
  },
})

/** Expected failures thrown as AppError become the mapped tRPC code, so the HTTP status is right too. */
const mapAppErrors = t.middleware(async ({ next }) => {
  const result = await next()
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause
    throw new TRPCError({ code: APP_ERROR_TO_TRPC[cause.code], message: cause.message, cause })
  }
  return result
})

export const router = t.router
export const publicProcedure = t.procedure.use(mapAppErrors)
export const createCallerFactory = t.createCallerFactory
