// What the account page does with the current password again (and a code while two-factor is on):
// change the address or the password, make an API key, add a webhook. Each form's rules are the server's, checked
// here first, plus the few only a form knows (the new password typed twice, the address it already is).
import {
  type ApiKeyScope,
  type ChangeEmailBody,
  type ChangePasswordBody,
  type CreateApiKeyRequest,
  type CreateWebhookRequest,
  changeEmailBodySchema,
  changePasswordBodySchema,
  createApiKeyRequestSchema,
  createWebhookRequestSchema,
  EMAIL_MESSAGES,
  MESSAGES,
  type User,
  type WebhookEventType,
} from '@ownvoice/shared';
import { isApiError } from '../../lib/api-error';
import { FormError, parseForm } from '../../lib/form-error';

export const CREDENTIAL_MESSAGES = {
  emailChangeFailed: 'Could not change the address. Please try again.',
  passwordChangeFailed: 'Could not change the password. Please try again.',
} as const;

export interface EmailChangeInput {
  email: string;
  currentPassword: string;
  code: string;
}

export interface PasswordChangeInput {
  currentPassword: string;
  password: string;
  confirmPassword: string;
  code: string;
}

export interface ApiKeyInput {
  name: string;
  scopes: ApiKeyScope[];
  rateLimitPerMinute: number;
  wakesVoices: boolean;
  currentPassword: string;
  code: string;
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const codePart = (code: string) => (code === '' ? {} : { mfaToken: code });

/** The code is asked for while two-factor is on, or once the server said it is. */
function requireCode(needsCode: boolean, code: string): void {
  if (needsCode && code === '') throw new FormError(EMAIL_MESSAGES.codeNeeded);
}

/** The request to change the address, or a FormError saying what to fix. */
export function emailChangeBody(
  input: EmailChangeInput,
  user: Pick<User, 'email'>,
  needsCode: boolean,
): ChangeEmailBody {
  const body = parseForm(changeEmailBodySchema, {
    email: input.email,
    currentPassword: input.currentPassword,
    ...codePart(input.code),
  });
  if (sameAddress(body.email, user.email)) throw new FormError(EMAIL_MESSAGES.sameEmail);
  requireCode(needsCode, input.code);
  return body;
}

/** The request to change the password, or a FormError saying what to fix. */
export function passwordChangeBody(input: PasswordChangeInput, needsCode: boolean): ChangePasswordBody {
  const body = parseForm(changePasswordBodySchema, {
    currentPassword: input.currentPassword,
    password: input.password,
    ...codePart(input.code),
  });
  if (input.password !== input.confirmPassword) throw new FormError(MESSAGES.passwordMismatch);
  requireCode(needsCode, input.code);
  return body;
}

/** The request to make an API key, or a FormError saying what to fix. */
export function apiKeyBody(input: ApiKeyInput, needsCode: boolean): CreateApiKeyRequest {
  const body = parseForm(createApiKeyRequestSchema, {
    name: input.name,
    scopes: input.scopes,
    rateLimitPerMinute: input.rateLimitPerMinute,
    wakesVoices: input.wakesVoices,
    currentPassword: input.currentPassword,
    ...codePart(input.code),
  });
  requireCode(needsCode, input.code);
  return body;
}

export interface WebhookInput {
  url: string;
  events: WebhookEventType[];
  currentPassword: string;
  code: string;
}

export function webhookBody(input: WebhookInput, needsCode: boolean): CreateWebhookRequest {
  const body = parseForm(createWebhookRequestSchema, {
    url: input.url,
    events: input.events,
    currentPassword: input.currentPassword,
    ...codePart(input.code),
  });
  requireCode(needsCode, input.code);
  return body;
}

/** The server wants the second factor although the form did not ask (two-factor turned on elsewhere). */
export const asksForCode = (error: unknown): boolean => isApiError(error) && error.code === 'MFA_REQUIRED';
