// The closed list of error codes and the one error body every /api route answers with.
import { z } from 'zod';

export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'MALFORMED_REQUEST',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHENTICATED',
  'SESSION_EXPIRED',
  'INVALID_CREDENTIALS',
  'INVALID_MFA_TOKEN',
  'MFA_ALREADY_ENABLED',
  'MFA_NOT_ENABLED',
  'MFA_REQUIRED',
  'ACCOUNT_LOCKED',
  'FORBIDDEN',
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  /** /v1: the `model` named is not one of the caller's Voices (OpenAI's `model_not_found`). */
  'MODEL_NOT_FOUND',
  'EMAIL_TAKEN',
  'USERNAME_TAKEN',
  'BETA_WAITLIST',
  'RATE_LIMITED',
  'INSUFFICIENT_LIMIT',
  'VOICE_NOT_READY',
  'VOICE_WAKING',
  'ENGINE_UNAVAILABLE',
  'CSRF_MISSING_SECRET',
  'CSRF_MISSING_TOKEN',
  'CSRF_INVALID_TOKEN',
  'INTERNAL_ERROR',
  'REQUEST_TIMEOUT',
  'BILLING_DISABLED',
  'SUBSCRIPTION_EXISTS',
  'NO_SUBSCRIPTION',
  'NOT_ON_TRIAL',
  'PAYMENT_PROVIDER_ERROR',
  'PAYMENT_DECLINED',
  'PAYMENT_REQUIRES_ACTION',
  'TRIAL_UNAVAILABLE',
  'PLAN_MANAGED_BY_PROVIDER',
  'INVALID_WEBHOOK_SIGNATURE',
  'MFA_TOKEN_REQUIRED',
  'INVITATION_INVALID',
  'RESET_LINK_INVALID',
  'EMAIL_LINK_INVALID',
  'EMAIL_NOT_VERIFIED',
  'API_KEY_NOT_ALLOWED',
  'API_KEY_SCOPE',
  'API_KEY_REVOKED',
  'API_KEYS_FULL',
  'VOICE_PACKAGE_INVALID',
  'BASE_MODEL_MISMATCH',
  /** Cancelling a training of a Voice that is not training (409). */
  'VOICE_NOT_TRAINING',
  'WEBHOOKS_FULL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const apiErrorBodySchema = z.object({
  msg: z.string(),
  code: z.enum(ERROR_CODES).optional(),
  errors: z.array(z.object({ msg: z.string(), path: z.string() })).optional(),
  /** "insufficient_limit" when a resource ran out; the client then offers the purchase modal. */
  reason: z.literal('insufficient_limit').optional(),
  /** The resource that ran out (a RESOURCE_KEYS value). */
  limitType: z.string().optional(),
  /** Every resource the refused action needs and lacks, `limitType` first, when it is more than one. */
  limitTypes: z.array(z.string()).optional(),
  /** Extra machine-readable detail, e.g. `retryAfterSeconds` for a lock. */
  details: z.record(z.string(), z.unknown()).optional(),
  /** A sensitive admin action needs a fresh second-factor code: send it again with `x-mfa-token`. */
  requiresMFAToken: z.literal(true).optional(),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

export const isCsrfErrorCode = (code: unknown): boolean => typeof code === 'string' && code.startsWith('CSRF_');
