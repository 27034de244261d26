// The one error type the API client throws, so callers branch on status and code, never on text.
import { apiErrorBodySchema } from '@ownvoice/shared';

export interface ApiErrorDetails {
  status: number;
  msg: string;
  code?: string | undefined;
  errors?: { msg: string; path: string }[] | undefined;
  /** "insufficient_limit" when a resource ran out (the purchase modal's cue). */
  reason?: string | undefined;
  /** The resource that ran out, when `reason` says one did. */
  limitType?: string | undefined;
  /** Every resource the refused action lacks, `limitType` first, when it is more than one. */
  limitTypes?: string[] | undefined;
  details?: Record<string, unknown> | undefined;
  /** A sensitive admin action wants a fresh second-factor code (sent again in `x-mfa-token`). */
  requiresMFAToken?: boolean | undefined;
}

export class ApiError extends Error {
  readonly status: number;
  readonly msg: string;
  readonly code: string | undefined;
  readonly errors: { msg: string; path: string }[];
  readonly reason: string | undefined;
  readonly limitType: string | undefined;
  readonly limitTypes: string[];
  readonly details: Record<string, unknown>;
  readonly requiresMFAToken: boolean;

  constructor({
    status,
    msg,
    code,
    errors,
    reason,
    limitType,
    limitTypes,
    details,
    requiresMFAToken,
  }: ApiErrorDetails) {
    super(msg);
    this.name = 'ApiError';
    this.status = status;
    this.msg = msg;
    this.code = code;
    this.errors = errors ?? [];
    this.reason = reason;
    this.limitType = limitType;
    this.limitTypes = limitTypes ?? [];
    this.details = details ?? {};
    this.requiresMFAToken = requiresMFAToken === true;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** Builds an ApiError from whatever an error response carried, tolerating non-JSON bodies. */
export function apiErrorFromBody(status: number, body: unknown): ApiError {
  const parsed = apiErrorBodySchema.safeParse(body);
  if (parsed.success) {
    return new ApiError({ status, ...parsed.data });
  }
  // A code outside the shared list (a proxy, a newer server) must not hide the message.
  const loose = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const msg = typeof loose.msg === 'string' && loose.msg !== '' ? loose.msg : `Request failed (HTTP ${status})`;
  const code = typeof loose.code === 'string' ? loose.code : undefined;
  const reason = typeof loose.reason === 'string' ? loose.reason : undefined;
  const limitType = typeof loose.limitType === 'string' ? loose.limitType : undefined;
  const requiresMFAToken = loose.requiresMFAToken === true;
  return new ApiError({ status, msg, code, reason, limitType, requiresMFAToken });
}

/** The message to show for an error: the server's first message, else the fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (isApiError(error)) return error.msg || error.errors[0]?.msg || fallback;
  return fallback;
}
