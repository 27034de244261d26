// The account's address and password after sign-up: confirming the address, changing the password
// or the address, and the e-mail notices a person can switch off. Server and web check the same.
import { z } from 'zod';
import { PASSWORD_MAX } from '../constants.js';
import { emailSchema, loginCodeSchema, newPasswordSchema } from './auth.js';

/** How long a link to confirm an address works (a sign-up takes its beta seat only once confirmed). */
export const EMAIL_LINK_HOURS = 48;
/** At most this many confirmation links an hour per account (a resend, a change of address). */
export const EMAIL_LINKS_PER_HOUR = 3;

const tokenSchema = z.string().min(20).max(100);
/** The password a signed-in person gives again to change something sensitive (address, password, a new API key). */
export const currentPasswordSchema = z
  .string({ error: 'Enter your current password.' })
  .min(1, 'Enter your current password.')
  .max(PASSWORD_MAX);

/** POST /api/auth/email/verify: the token from an e-mailed link (a sign-up's, or a new address's). */
export const verifyEmailBodySchema = z.object({ token: tokenSchema });
export type VerifyEmailBody = z.input<typeof verifyEmailBodySchema>;

/** POST /api/auth/password/change: the current password, the new one, and a code when two-factor is on. */
export const changePasswordBodySchema = z.object({
  currentPassword: currentPasswordSchema,
  password: newPasswordSchema,
  mfaToken: loginCodeSchema.optional(),
});
export type ChangePasswordBody = z.input<typeof changePasswordBodySchema>;

/** POST /api/auth/email/change: the new address (confirmed from there), the password, and a code when on. */
export const changeEmailBodySchema = z.object({
  email: emailSchema,
  currentPassword: currentPasswordSchema,
  mfaToken: loginCodeSchema.optional(),
});
export type ChangeEmailBody = z.input<typeof changeEmailBodySchema>;

/**
 * The e-mail notices, in the order the account screen lists them. `required` ones are always sent
 * (they protect the account or its money); the others can be switched off.
 */
export const NOTICES = [
  {
    key: 'voice_results',
    label: 'Voice ready or failed',
    description: 'When a Voice finishes training, or could not be trained and what to do.',
    required: false,
  },
  {
    key: 'trial_ending',
    label: 'Trial ends tomorrow',
    description: 'The day before the trial ends, with the amount that will be charged.',
    required: false,
  },
  {
    key: 'payments',
    label: 'Receipts and renewals',
    description: 'A receipt for every payment, and for each renewal of the plan.',
    required: false,
  },
  {
    key: 'subscription_changes',
    label: 'Plan cancelled or ending',
    description: 'When the plan is cancelled, or set to end with its period.',
    required: false,
  },
  {
    key: 'refunds',
    label: 'Refunds',
    description: 'When a payment is refunded, and what it took back.',
    required: false,
  },
  {
    key: 'new_sign_in',
    label: 'Sign-in from a new device',
    description: 'When someone signs in from a browser this account has not used before.',
    required: false,
  },
  {
    key: 'card_declined',
    label: 'Card declined',
    description: 'When a payment fails, with the link to fix it. Always sent: the plan depends on it.',
    required: true,
  },
  {
    key: 'security',
    label: 'Security changes',
    description: 'Password or address changed, two-factor turned on or off, a new API key. Always sent.',
    required: true,
  },
] as const;
export type NoticeKey = (typeof NOTICES)[number]['key'];
export const NOTICE_KEYS = NOTICES.map((n) => n.key) as [NoticeKey, ...NoticeKey[]];
export const SWITCHABLE_NOTICE_KEYS = NOTICES.filter((n) => !n.required).map((n) => n.key) as [
  NoticeKey,
  ...NoticeKey[],
];

/** PUT /api/auth/notices: the notices switched off (only switchable ones; the rest are sent). */
export const noticeSettingsBodySchema = z.object({
  muted: z
    .array(z.enum(SWITCHABLE_NOTICE_KEYS as [string, ...string[]], { error: 'That notice cannot be switched off.' }))
    .max(NOTICES.length),
});
export type NoticeSettingsBody = z.input<typeof noticeSettingsBodySchema>;

export const EMAIL_MESSAGES = {
  verifySent: (email: string) => `We sent a link to ${email}. Open it to confirm your address.`,
  verified: 'Your address is confirmed.',
  linkInvalid:
    'This link does not work any more: it was used, replaced by a newer one, or it expired. Ask for a new one from your account page.',
  notVerified: (email: string) =>
    `Confirm your address first: open the link we sent to ${email}, or ask for a new one on your account page.`,
  changeSent: (email: string) =>
    `We sent a link to ${email}. Your address changes when you open it; until then it stays as it is.`,
  emailChanged: (email: string) => `Your address is now ${email}.`,
  passwordChanged: 'Your password is changed. Every other session was signed out.',
  sameEmail: 'That is already your address.',
  codeNeeded: 'Two-factor is on for this account: enter the code from your authenticator app as well.',
  wrongPassword: 'That password is not right. Nothing was changed.',
  noticesSaved: 'Notice settings saved.',
} as const;

/** POST /api/auth/email/verify's answer: the address now confirmed, and whether it was a change of address. */
export const verifyEmailResponseSchema = z.object({ email: z.string(), changed: z.boolean() });
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;

/** What a request that sent a link answers (resend, change of address): what to look for, in words. */
export const linkSentResponseSchema = z.object({ msg: z.string() });
export type LinkSentResponse = z.infer<typeof linkSentResponseSchema>;
