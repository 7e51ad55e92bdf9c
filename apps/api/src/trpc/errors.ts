import type { TRPC_ERROR_CODE_KEY } from '@trpc/server'
import type { AppErrorCode } from '../errors.js'

/** The one table from app error codes to tRPC (and so HTTP) codes. */
export const APP_ERROR_TO_TRPC: Record<AppErrorCode, TRPC_ERROR_CODE_KEY> = {
  invalid_input: 'BAD_REQUEST',
  invalid_cursor: 'BAD_REQUEST',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  limit: 'PAYLOAD_TOO_LARGE',
  unsupported_storage: 'PRECONDITION_FAILED',
  unavailable: 'SERVICE_UNAVAILABLE',
  maintenance_required: 'SERVICE_UNAVAILABLE',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  gone: 'NOT_FOUND',
  too_many_requests: 'TOO_MANY_REQUESTS',
}
