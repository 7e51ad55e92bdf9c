/** Failures that are not contract answers. trpc/errors.ts maps each code to one tRPC/HTTP status. */
export type AppErrorCode =
  | 'invalid_input'
  | 'invalid_cursor'
  | 'not_found'
  | 'conflict'
  | 'limit'
  | 'unsupported_storage'
  | 'unavailable'
  | 'maintenance_required'
  | 'unauthorized'
  | 'forbidden'
  | 'gone'
  | 'too_many_requests'

export class AppError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'AppError'
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError
