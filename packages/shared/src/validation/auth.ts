// Registration and login rules of spec section 5, used by the server's route schemas and
// by the web forms, so each rule and its message exists once.
import { z } from 'zod';
import {
  EMAIL_MAX,
  LOGIN_CODE_MAX,
  LOGIN_CODE_MIN,
  PASSWORD_MAX,
  PASSWORD_MIN,
  USERNAME_MAX,
  USERNAME_MIN,
} from '../constants.js';
import { cleanString, stripNul } from './text.js';

export const MESSAGES = {
  usernameLength: 'Username must be 3-30 characters long',
  usernameChars: 'Username can only contain letters, numbers, underscores, and hyphens',
  emailRequired: 'Email is required',
  emailLength: 'Email must be at most 100 characters long',
  emailInvalid: 'Please enter a valid email address',
  passwordLength: 'Password must be 8-128 characters long',
  passwordStrength: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  passwordMismatch: 'Passwords do not match',
  codeFormat: 'Code must be 6-8 letters or digits',
} as const;

const USERNAME_CHARS = /^[A-Za-z0-9_-]+$/;
// Deliberately simple: one @, something on each side, a dot in the domain, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What the username box keeps as the user types: allowed characters, at most 30. */
export const filterUsernameInput = (value: string): string =>
  value.replace(/[^A-Za-z0-9_-]/g, '').slice(0, USERNAME_MAX);

/** What the login-code box keeps as the user types: letters and digits, at most 8. */
export const filterLoginCodeInput = (value: string): string =>
  value.replace(/[^A-Za-z0-9]/g, '').slice(0, LOGIN_CODE_MAX);

export const normalizeEmail = (value: string): string => stripNul(value).trim().toLowerCase();

export const usernameSchema = cleanString().pipe(
  z
    .string()
    .min(USERNAME_MIN, MESSAGES.usernameLength)
    .max(USERNAME_MAX, MESSAGES.usernameLength)
    .regex(USERNAME_CHARS, MESSAGES.usernameChars),
);

export const emailSchema = z
  .string({ error: MESSAGES.emailRequired })
  .transform(normalizeEmail)
  .pipe(
    z
      .string()
      .min(1, MESSAGES.emailRequired)
      .max(EMAIL_MAX, MESSAGES.emailLength)
      .regex(EMAIL_PATTERN, MESSAGES.emailInvalid),
  );

// Passwords lose NUL characters but are not trimmed: spaces are legitimate password characters.
const passwordBase = z.string({ error: MESSAGES.passwordLength }).transform(stripNul);

export const newPasswordSchema = passwordBase.pipe(
  z
    .string()
    .min(PASSWORD_MIN, MESSAGES.passwordLength)
    .max(PASSWORD_MAX, MESSAGES.passwordLength)
    .refine((p) => /[a-z]/.test(p) && /[A-Z]/.test(p) && /[0-9]/.test(p), MESSAGES.passwordStrength),
);

export const loginPasswordSchema = passwordBase.pipe(
  z.string().min(PASSWORD_MIN, MESSAGES.passwordLength).max(PASSWORD_MAX, MESSAGES.passwordLength),
);

export const loginCodeSchema = cleanString().pipe(
  z
    .string()
    .min(LOGIN_CODE_MIN, MESSAGES.codeFormat)
    .max(LOGIN_CODE_MAX, MESSAGES.codeFormat)
    .regex(/^[A-Za-z0-9]+$/, MESSAGES.codeFormat),
);

export const registerBodySchema = z.object({
  username: z.string({ error: MESSAGES.usernameLength }).pipe(usernameSchema),
  email: emailSchema,
  password: newPasswordSchema,
});
export type RegisterBody = z.input<typeof registerBodySchema>;

/** The web form adds the confirmation, checked after the server's own rules. */
export const registerFormSchema = registerBodySchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === stripNul(v.confirmPassword), {
    message: MESSAGES.passwordMismatch,
    path: ['confirmPassword'],
  });
export type RegisterForm = z.input<typeof registerFormSchema>;

export const loginBodySchema = z.object({
  email: emailSchema,
  password: loginPasswordSchema,
  mfaToken: loginCodeSchema.optional(),
});
export type LoginBody = z.input<typeof loginBodySchema>;

/** The first message of a failed parse, for forms that show one error at a time. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}

export const MFA_MESSAGES = {
  codeRequired: 'Please enter the 6-digit code from your authenticator app',
  adminRequired: 'MFA is REQUIRED for admin accounts',
  adminRequiredDetail: 'you must enable MFA before you can access admin functions',
} as const;

/** POST /auth/mfa/setup: the pending secret and its QR code (a data: URL). */
export const mfaSetupResponseSchema = z.object({ secret: z.string(), qrCode: z.string() });
export type MfaSetupResponse = z.infer<typeof mfaSetupResponseSchema>;

/** POST /auth/mfa/verify: the secret from setup and a 6-digit code from the app. */
export const mfaVerifyBodySchema = z.object({
  secret: z.string().min(1).max(128),
  token: z
    .string({ error: MFA_MESSAGES.codeRequired })
    .trim()
    .regex(/^\d{6}$/, MFA_MESSAGES.codeRequired),
});
export const mfaVerifyResponseSchema = z.object({ backupCodes: z.array(z.string()) });
export type MfaVerifyResponse = z.infer<typeof mfaVerifyResponseSchema>;

/** POST /auth/mfa/disable: a current code or a backup code. */
export const mfaDisableBodySchema = z.object({ mfaToken: loginCodeSchema });

export const DELETE_ACCOUNT_MESSAGES = {
  passwordRequired: 'Enter your password to delete your account',
  codeRequired: 'Enter a code from your authenticator app (or a backup code) to delete your account',
  confirm: 'Deleting your account removes your Voices, their files and your usage for good. This cannot be undone.',
} as const;

/**
 * DELETE /auth/account: the password again, and a current or backup code when two-factor is on.
 * (The spec shows the button without its action; docs/decisions/0009 records this one.)
 */
export const deleteAccountBodySchema = z.object({
  password: z
    .string({ error: DELETE_ACCOUNT_MESSAGES.passwordRequired })
    .min(1, DELETE_ACCOUNT_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX, MESSAGES.passwordLength),
  mfaToken: loginCodeSchema.optional(),
});
export type DeleteAccountBody = z.input<typeof deleteAccountBodySchema>;

/** The account screen's error messages (spec §8 Account). */
export const ACCOUNT_MESSAGES = {
  loadFailed: 'Failed to load account information',
  mfaSetupFailed: 'Failed to start MFA setup',
  mfaVerifyFailed: 'Failed to verify MFA code',
  mfaDisableFailed: 'Failed to disable MFA',
  deleteFailed: 'Failed to delete account',
} as const;
