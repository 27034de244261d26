// The one error type handlers and services throw. Its code comes from the closed list in
// @ownvoice/shared; the error handler turns it into the JSON body `{ msg, code, errors? }`.
import {
  type ApiErrorBody,
  EMAIL_MESSAGES,
  type ErrorCode,
  MFA_MESSAGES,
  RESOURCE_UNITS,
  type ResourceKey,
} from '@ownvoice/shared';

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly errors?: ApiErrorBody['errors'],
    readonly extra?: Pick<ApiErrorBody, 'reason' | 'limitType' | 'limitTypes' | 'requiresMFAToken'>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): ApiErrorBody {
    return {
      msg: this.message,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
      ...(this.details ? { details: this.details } : {}),
      ...this.extra,
    };
  }
}

export const errors = {
  unauthenticated: (msg = 'Please log in to continue.') => new AppError(401, 'UNAUTHENTICATED', msg),
  sessionExpired: () =>
    new AppError(401, 'SESSION_EXPIRED', 'Your session has expired after a period of inactivity. Please log in again.'),
  invalidCredentials: () => new AppError(401, 'INVALID_CREDENTIALS', 'Invalid credentials'),
  /** Sign-in's wrong code, in the contract's words (the login screen words it for people). */
  invalidMfaToken: () => new AppError(401, 'INVALID_MFA_TOKEN', 'Invalid MFA token'),
  /** A wrong code from someone signed in (setting up, turning off, deleting), shown as it is: 400, not a sign-out. */
  wrongCode: () =>
    new AppError(
      400,
      'INVALID_MFA_TOKEN',
      'That code is not right. Enter the current code from your authenticator app, or one of your backup codes.',
    ),
  mfaAlreadyEnabled: () =>
    new AppError(
      409,
      'MFA_ALREADY_ENABLED',
      'Two-factor authentication is already on. Turn it off first to set it up again.',
    ),
  mfaRequired: () =>
    new AppError(403, 'MFA_REQUIRED', `${MFA_MESSAGES.adminRequired}: ${MFA_MESSAGES.adminRequiredDetail}.`),
  mfaNotEnabled: () => new AppError(400, 'MFA_NOT_ENABLED', 'Two-factor authentication is not on for this account.'),
  accountLocked: (retryAfterSeconds: number) =>
    new AppError(
      423,
      'ACCOUNT_LOCKED',
      `Account is temporarily locked after multiple failed login attempts. Try again in ${formatDuration(retryAfterSeconds)}.`,
      { retryAfterSeconds },
    ),
  /**
   * Out of a resource. `limitType` is the first one short (the contract's field); `also` names the
   * others the same action needs, so one purchase can cover them all (`limitTypes` lists every one).
   */
  insufficientLimit: (limitType: ResourceKey, also: readonly ResourceKey[] = []) =>
    new AppError(400, 'INSUFFICIENT_LIMIT', usageRanOut([limitType, ...also], true), undefined, undefined, {
      reason: 'insufficient_limit',
      limitType,
      ...(also.length > 0 ? { limitTypes: [limitType, ...also] } : {}),
    }),
  voiceNotReady: (msg: string) => new AppError(400, 'VOICE_NOT_READY', msg),
  /** An API key woke a sleeping Voice and it is not awake yet: the wake goes on; ask again then. */
  voiceWaking: (retryAfterSeconds: number) =>
    new AppError(
      503,
      'VOICE_WAKING',
      `This Voice was asleep and is waking up for your request. Try again in ${formatDuration(retryAfterSeconds)}.`,
      { retryAfterSeconds },
    ),
  engineUnavailable: (why: string | null) =>
    new AppError(
      503,
      'ENGINE_UNAVAILABLE',
      `The language model is not ready${why ? ` (${why})` : ''}. Please try again in a minute.`,
    ),
  /** The model servers did not answer, or stopped answering: `msg` says what happened and what to do. */
  inferenceUnavailable: (msg: string) => new AppError(503, 'ENGINE_UNAVAILABLE', msg),
  /** A merged model could not be built (no disk, or no time or memory for it): `msg` says what to do. */
  mergeFailed: (msg: string) => new AppError(503, 'ENGINE_UNAVAILABLE', msg),
  validation: (msg: string) => new AppError(400, 'VALIDATION_ERROR', msg),
  uploadTooLarge: (msg: string) => new AppError(413, 'PAYLOAD_TOO_LARGE', msg),
  forbidden: (msg = 'You do not have permission to do that.') => new AppError(403, 'FORBIDDEN', msg),
  notFound: (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found`),
  /** /v1: `model` names none of the caller's awake Voices (`asleep`: one of theirs, asleep). */
  modelNotFound: (model: string, asleep = false) => {
    const named = `The model \`${model.length > 60 ? `${model.slice(0, 60)}…` : model}\``;
    return new AppError(
      404,
      'MODEL_NOT_FOUND',
      asleep
        ? `${named} is one of your Voices, but asleep: GET /v1/models lists the awake ones.`
        : `${named} does not exist or is not one of your Voices. GET /v1/models lists your awake Voices, the models you can use.`,
    );
  },
  emailTaken: () => new AppError(409, 'EMAIL_TAKEN', 'An account with this email already exists. Try logging in.'),
  usernameTaken: () => new AppError(409, 'USERNAME_TAKEN', 'This username is already taken. Please choose another.'),
  betaWaitlist: () =>
    new AppError(403, 'BETA_WAITLIST', 'The beta is full right now. Join the waitlist and we will let you in soon.'),
  billingDisabled: () =>
    new AppError(404, 'BILLING_DISABLED', 'This server does not sell plans; usage limits come from its configuration.'),
  subscriptionExists: () =>
    new AppError(
      409,
      'SUBSCRIPTION_EXISTS',
      'You already have a subscription. Change your plan from the plans page instead of starting a new one.',
    ),
  noSubscription: (msg: string) => new AppError(400, 'NO_SUBSCRIPTION', msg),
  notOnTrial: () => new AppError(400, 'NOT_ON_TRIAL', 'You are not on the trial, so there is no trial to finish.'),
  /** The provider refused (409), failed (502) or could not be reached (503); `msg` says what to do. */
  paymentProvider: (msg: string, status: 409 | 502 | 503 = 502) => new AppError(status, 'PAYMENT_PROVIDER_ERROR', msg),
  /** The bank refused the card: the message carries its reason and what to do; nothing was charged. */
  paymentDeclined: (msg: string, payUrl: string | null = null) =>
    new AppError(402, 'PAYMENT_DECLINED', msg, payUrl ? { payUrl } : undefined),
  /** The bank asks the person to confirm the payment (3-D Secure) where they can: at `payUrl`. */
  paymentRequiresAction: (msg: string, payUrl: string | null = null) =>
    new AppError(402, 'PAYMENT_REQUIRES_ACTION', msg, payUrl ? { payUrl } : undefined),
  trialUnavailable: (msg: string) => new AppError(409, 'TRIAL_UNAVAILABLE', msg),
  planManagedByProvider: (msg: string) => new AppError(409, 'PLAN_MANAGED_BY_PROVIDER', msg),
  invalidWebhookSignature: (why: string) =>
    new AppError(400, 'INVALID_WEBHOOK_SIGNATURE', `The webhook signature could not be verified: ${why}`),
  mfaTokenRequired: () =>
    new AppError(
      403,
      'MFA_TOKEN_REQUIRED',
      'Confirm this action with the current code from your authenticator app, or a backup code.',
      undefined,
      undefined,
      { requiresMFAToken: true },
    ),
  mfaTokenRejected: () =>
    new AppError(
      403,
      'INVALID_MFA_TOKEN',
      'That code is not valid or was already used. Enter the current code from your authenticator app, or a backup code.',
      undefined,
      undefined,
      { requiresMFAToken: true },
    ),
  /** What needs a confirmed address (the trial, an invitation to an existing account) asks for it first. */
  emailNotVerified: (email: string) => new AppError(403, 'EMAIL_NOT_VERIFIED', EMAIL_MESSAGES.notVerified(email)),
  invitationInvalid: (msg: string) => new AppError(410, 'INVITATION_INVALID', msg),
  /** An API key on a route keys may not use: account, billing, admin, managing keys. */
  voicePackageInvalid: (msg: string) => new AppError(400, 'VOICE_PACKAGE_INVALID', msg),
  /**
   * A Voice and the base model this server runs differ: a package to import, or a Voice to wake
   * (decision 31). `msg` names both models and what to do.
   */
  baseModelMismatch: (msg: string) => new AppError(409, 'BASE_MODEL_MISMATCH', msg),
  webhooksFull: (max: number) =>
    new AppError(409, 'WEBHOOKS_FULL', `You have ${max} webhooks, the most an account can have. Remove one first.`),
  voiceNotTraining: (status: string) =>
    new AppError(
      409,
      'VOICE_NOT_TRAINING',
      `This Voice is not training (it is ${status}), so there is no training to cancel.`,
    ),
  apiKeyNotAllowed: () =>
    new AppError(
      403,
      'API_KEY_NOT_ALLOWED',
      'An API key cannot do this. Sign in to OwnVoice for your account, billing and keys; keys can read Voices, Convert and Create.',
    ),
  apiKeyScope: (scopes: readonly string[]) =>
    new AppError(
      403,
      'API_KEY_SCOPE',
      `This API key may not use ${scopes.map((s) => `"${s}"`).join(' or ')}. Create a key with that scope on your account page.`,
    ),
  apiKeyRevoked: () =>
    new AppError(401, 'API_KEY_REVOKED', 'This API key was revoked. Create a new one on your account page.'),
  apiKeysFull: (max: number) =>
    new AppError(409, 'API_KEYS_FULL', `You have ${max} API keys, the most an account can have. Revoke one first.`),
  /** A key's own budget of requests a minute ran out. */
  apiKeyRateLimited: (retryAfterSeconds: number) =>
    new AppError(
      429,
      'RATE_LIMITED',
      `This API key made too many requests. Please wait ${formatDuration(retryAfterSeconds)} and try again.`,
      { retryAfterSeconds },
    ),
  /** A client that sent too many wrong API keys is shut out of keys for a while (services/login-guard.ts). */
  apiKeysLockedOut: (retryAfterSeconds: number) =>
    new AppError(
      429,
      'RATE_LIMITED',
      `Too many requests with wrong API keys came from your address. Check the key your program sends, then try again in ${formatDuration(retryAfterSeconds)}.`,
      { retryAfterSeconds },
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(
      429,
      'RATE_LIMITED',
      `Too many attempts. Please wait ${formatDuration(retryAfterSeconds)} and try again.`,
      { retryAfterSeconds },
    ),
} as const;

/**
 * What a person out of usage reads: what ran out, then what to do. Where the server sells usage
 * (billing on) that is buying more; where it does not (OWNVOICE_BILLING=none) its administrator
 * sets each account's limits, so that is who to ask.
 */
export function usageRanOut(keys: readonly ResourceKey[], sellsUsage: boolean): string {
  const what = `You have no ${keys.map((key) => RESOURCE_UNITS[key][1]).join(' and no ')} left in your usage limits.`;
  return `${what} ${sellsUsage ? 'Buy more usage to continue.' : 'This server does not sell usage: ask its administrator to raise your limits.'}`;
}

/** "1 hour 59 minutes", "45 seconds": how long to wait, in words a person reads at a glance. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(1, Math.ceil(totalSeconds));
  if (s < 60) return `${s} second${s === 1 ? '' : 's'}`;
  const minutes = Math.ceil(s / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const parts = [];
  if (h > 0) parts.push(`${h} hour${h === 1 ? '' : 's'}`);
  if (m > 0) parts.push(`${m} minute${m === 1 ? '' : 's'}`);
  return parts.join(' ');
}
