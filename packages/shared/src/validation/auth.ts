// Registration and login rules, used by the server's route schemas and
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
import { cleanText, stripNul } from './text.js';

export const MESSAGES = {
  usernameLength: 'Username must be 3-30 characters long',
  usernameChars: 'Username can only contain letters, numbers, underscores, and hyphens',
  emailRequired: 'Email is required',
  emailLength: 'Email must be at most 100 characters long',
  emailInvalid: 'Please enter a valid email address',
  emailLookAlike:
    'Please type your email address in one alphabet, without invisible characters (copying from some apps adds them)',
  passwordLength: 'Password must be 8-128 characters long',
  passwordStrength: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  passwordMismatch: 'Passwords do not match',
  codeFormat: 'Code must be 6-8 letters or digits',
} as const;

const USERNAME_CHARS = /^[A-Za-z0-9_-]+$/;
// An address is one plain mailbox: a dot-atom before the @ (RFC 5322's atext, and letters of any
// script as RFC 6531 allows) and a host name after it. Group syntax ("g:victim@ex.com;"), quoted
// local parts and comments are refused: a mailer reads them as another address than the one typed,
// so several "different" accounts would share one mailbox (decision 33). Checked one atom or label
// at a time, so each pattern runs over one short piece.
const ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\p{L}\p{M}\p{N}-]+$/u;
const HOST_LABEL = /^[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?$/u;
const DIGITS = /^\p{N}+$/u;
/** Longer raw input is refused before any normalising or pattern: trimming cannot bring it under. */
const RAW_INPUT_MAX = 400;

/** Characters that show nothing: zero-width, bidi controls, fillers, other format and control characters. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}]/u;
// Scripts a look-alike address mixes; letters of any other script count as one script of their own.
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Georgian',
  'Cherokee',
  'Devanagari',
  'Bengali',
  'Tamil',
  'Thai',
  'Ethiopic',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
].map((name) => ({ name, pattern: new RegExp(`\\p{Script=${name}}`, 'u') }));
const SCRIPT_NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;
// Scripts that are written together (Unicode's "highly restrictive" sets): Japanese, Chinese, Korean.
const WRITTEN_TOGETHER = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

/** The scripts of the letters in `value` (digits and punctuation belong to none). */
function scriptsOf(value: string): Set<string> {
  const found = new Set<string>();
  for (const char of value) {
    if (SCRIPT_NEUTRAL.test(char)) continue;
    found.add(SCRIPTS.find((s) => s.pattern.test(char))?.name ?? 'Other');
  }
  return found;
}

/** Whether `value` mixes scripts that are not written together, as look-alikes such as "vіctim" (Cyrillic і) do. */
export function mixesScripts(value: string): boolean {
  const scripts = [...scriptsOf(value)];
  return scripts.length > 1 && !WRITTEN_TOGETHER.some((set) => scripts.every((s) => set.includes(s)));
}

/** Whether `email` is one plain mailbox: dot-separated atoms, an @, and a host name of two labels or more. */
export function isPlainMailbox(email: string): boolean {
  const parts = email.split('@');
  if (parts.length !== 2) return false;
  const [local = '', host = ''] = parts;
  const labels = host.split('.');
  return (
    local.split('.').every((atom) => ATOM.test(atom)) &&
    labels.length >= 2 &&
    labels.every((label) => HOST_LABEL.test(label)) &&
    // A last label of digits only is an IP address, not a host name.
    !DIGITS.test(labels.at(-1) ?? '')
  );
}

/** Whether `value` holds a character that shows nothing (zero-width, direction marks, controls). */
export const hasInvisible = (value: string): boolean => INVISIBLE.test(value);

/**
 * A name as a person typed it, cleaned as usernames are: NUL gone, trimmed, compatibility forms
 * folded (fullwidth "Ｍ" is "M"). Used by usernames and API key names.
 */
export const cleanName = (value: string): string => cleanText(value).normalize('NFKC');

/** What the username box keeps as the user types: allowed characters, at most 30. */
export const filterUsernameInput = (value: string): string =>
  value.replace(/[^A-Za-z0-9_-]/g, '').slice(0, USERNAME_MAX);

/**
 * A sign-in code as the server compares it: backup codes are issued as "abcd-efgh", and people
 * copy them with any case, dashes or spaces; authenticator codes are digits and keep them.
 */
export const normalizeLoginCode = (value: string): string => stripNul(value).replace(/[\s-]/g, '').toLowerCase();

/** What the login-code box keeps as the user types: the code as the server compares it, at most 8. */
export const filterLoginCodeInput = (value: string): string =>
  normalizeLoginCode(value)
    .replace(/[^a-z0-9]/g, '')
    .slice(0, LOGIN_CODE_MAX);

/**
 * One spelling per address: compatibility forms folded (fullwidth "ｖ" is "v"), then trimmed and
 * lower-cased. Invisible and mixed-script addresses are refused by emailSchema, not repaired.
 */
export const normalizeEmail = (value: string): string => stripNul(value).normalize('NFKC').trim().toLowerCase();

/** The first rule `email` (normalised) breaks, checking length before any pattern; undefined if none. */
function emailProblem(email: string): string | undefined {
  if (email.length === 0) return MESSAGES.emailRequired;
  if (email.length > EMAIL_MAX) return MESSAGES.emailLength;
  if (INVISIBLE.test(email)) return MESSAGES.emailLookAlike;
  if (!isPlainMailbox(email)) return MESSAGES.emailInvalid;
  const [local = '', domain = ''] = email.split('@');
  if ([local, ...domain.split('.')].some(mixesScripts)) return MESSAGES.emailLookAlike;
  return undefined;
}

/** The first rule `username` (trimmed) breaks, length first; undefined if none. */
function usernameProblem(username: string): string | undefined {
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) return MESSAGES.usernameLength;
  if (!USERNAME_CHARS.test(username)) return MESSAGES.usernameChars;
  return undefined;
}

/**
 * A string schema that stops at the first broken rule: `problem` sees the normalised value only
 * when the raw input is of a plausible length, so no pattern ever runs over a huge input.
 */
const checkedString = (
  normalize: (value: string) => string,
  problem: (value: string) => string | undefined,
  messages: { missing: string; tooLong: string },
) =>
  z.string({ error: messages.missing }).transform((raw, ctx) => {
    const value = raw.length > RAW_INPUT_MAX ? undefined : normalize(raw);
    const message = value === undefined ? messages.tooLong : problem(value);
    if (message !== undefined) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return value as string;
  });

/** Usernames are plain letters, digits, _ and -; compatibility forms (fullwidth) fold to them first. */
export const usernameSchema = checkedString(cleanName, usernameProblem, {
  missing: MESSAGES.usernameLength,
  tooLong: MESSAGES.usernameLength,
});

export const emailSchema = checkedString(normalizeEmail, emailProblem, {
  missing: MESSAGES.emailRequired,
  tooLong: MESSAGES.emailLength,
});

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

/** A current authenticator code or a backup code, as issued ("abcd-efgh") or typed without its dash. */
export const loginCodeSchema = z
  .string({ error: MESSAGES.codeFormat })
  .max(RAW_INPUT_MAX, MESSAGES.codeFormat)
  .transform(normalizeLoginCode)
  .pipe(
    z
      .string()
      .min(LOGIN_CODE_MIN, MESSAGES.codeFormat)
      .max(LOGIN_CODE_MAX, MESSAGES.codeFormat)
      .regex(/^[a-z0-9]+$/, MESSAGES.codeFormat),
  );

export const registerBodySchema = z.object({
  username: usernameSchema,
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
 * (What deleting does is docs/decisions/0009-account-deletion-and-admin-gate.md.)
 */
export const deleteAccountBodySchema = z.object({
  password: z
    .string({ error: DELETE_ACCOUNT_MESSAGES.passwordRequired })
    .min(1, DELETE_ACCOUNT_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX, MESSAGES.passwordLength),
  mfaToken: loginCodeSchema.optional(),
});
export type DeleteAccountBody = z.input<typeof deleteAccountBodySchema>;

/** The account screen's error messages. */
export const ACCOUNT_MESSAGES = {
  loadFailed: 'Failed to load account information',
  mfaSetupFailed: 'Failed to start MFA setup',
  mfaVerifyFailed: 'Failed to verify MFA code',
  mfaDisableFailed: 'Failed to disable MFA',
  deleteFailed: 'Failed to delete account',
} as const;

/** How long a password-reset link works. */
export const PASSWORD_RESET_MINUTES = 60;

/** POST /api/auth/password/forgot: the address to send a reset link to. */
export const forgotPasswordBodySchema = z.object({ email: emailSchema });
export type ForgotPasswordBody = z.input<typeof forgotPasswordBodySchema>;

/** POST /api/auth/password/reset: the link's token, the new password, and the code when two-factor is on. */
export const resetPasswordBodySchema = z.object({
  token: z.string().min(20).max(100),
  password: newPasswordSchema,
  mfaToken: loginCodeSchema.optional(),
});
export type ResetPasswordBody = z.input<typeof resetPasswordBodySchema>;

export const AUTH_RESET_MESSAGES = {
  /** The same answer whether or not an account uses the address. */
  forgotSent:
    'If an account uses that address, a link to choose a new password is on its way. It works once, for an hour.',
  resetDone: 'Your password is changed and you are signed out everywhere. Sign in with the new password.',
  linkInvalid: 'This link does not work any more: it was used, or it expired. Ask for a new one from the login page.',
  codeNeeded: 'Two-factor is on for this account: enter the code from your authenticator app as well.',
} as const;
