// Every message the service sends, one function each: what it says, built from its data and the
// links the caller made from OWNVOICE_PUBLIC_URL. Rendering is layout.ts's; which notice switch (if
// any) lets a person stop a message is MAIL_NOTICE's.
import { formatUsd, type NoticeKey } from '@ownvoice/shared';
import { formatWhen, type RenderedMail, render } from './layout.js';

type Amount = { amountCents: number };

export const MAIL_MESSAGES = {
  password_reset: ({ username, link, minutes }: { username: string; link: string; minutes: number }) =>
    render({
      subject: 'Reset your OwnVoice password',
      paragraphs: [
        `Hello ${username},`,
        `Someone asked to reset the password of your OwnVoice account. The link below works once, for ${minutes} minutes; choosing a new password signs you out everywhere else.`,
      ],
      action: { label: 'Choose a new password', url: link },
      footnote: 'If it was not you, ignore this message: your password stays as it is.',
    }),

  verify_email: ({ username, link, hours }: { username: string; link: string; hours: number }) =>
    render({
      subject: 'Confirm your OwnVoice address',
      paragraphs: [
        `Hello ${username},`,
        `Welcome to OwnVoice. Please confirm that this address is yours: the trial, your beta seat and admin invitations need a confirmed address. The link works for ${hours} hours.`,
      ],
      action: { label: 'Confirm my address', url: link },
      footnote: 'If you did not sign up for OwnVoice, ignore this message: nothing happens without the link.',
    }),

  email_change_confirm: ({ username, link, hours }: { username: string; link: string; hours: number }) =>
    render({
      subject: 'Confirm your new OwnVoice address',
      paragraphs: [
        `Hello ${username},`,
        `Your OwnVoice account asked to use this address from now on. It changes when you open the link below, which works for ${hours} hours; until then the account keeps its old address.`,
      ],
      action: { label: 'Use this address', url: link },
      footnote: 'If you did not ask for this, ignore this message: nothing changes without the link.',
    }),

  email_change_requested: ({ username, newEmail, link }: { username: string; newEmail: string; link: string }) =>
    render({
      subject: 'Your OwnVoice address is about to change',
      paragraphs: [
        `Hello ${username},`,
        `Someone signed in to your OwnVoice account, with its password, asked to move it to ${newEmail}. It moves only when the link sent there is opened.`,
        'If it was not you, change your password now: that ends every other session and stops the change.',
      ],
      action: { label: 'Open my account', url: link },
    }),

  email_changed: ({ username, newEmail, link }: { username: string; newEmail: string; link: string }) =>
    render({
      subject: 'Your OwnVoice address was changed',
      paragraphs: [
        `Hello ${username},`,
        `Your OwnVoice account now uses ${newEmail}. Messages, receipts and password resets go there from now on, and every other session was signed out.`,
        'If it was not you, reply to this message or write to us in the community chat at once, and say which account it is.',
      ],
      action: { label: 'Open OwnVoice', url: link },
    }),

  password_changed: ({ username, when, link }: { username: string; when: Date; link: string }) =>
    render({
      subject: 'Your OwnVoice password was changed',
      paragraphs: [
        `Hello ${username},`,
        `The password of your OwnVoice account was changed on ${formatWhen(when)}, and every other session was signed out.`,
        'If it was not you, choose a new password at once with "Forgot password?" on the login page.',
      ],
      action: { label: 'Open the login page', url: link },
    }),

  voice_ready: ({ username, voiceName, link }: { username: string; voiceName: string; link: string }) =>
    render({
      subject: `Your Voice "${voiceName}" is ready`,
      paragraphs: [
        `Hello ${username},`,
        `Your Voice "${voiceName}" finished training. Wake it to convert text into your style or create something new.`,
      ],
      action: { label: 'Open the Voice', url: link },
      footnote: 'You get this because "Voice ready or failed" is on in your account’s e-mail notices.',
    }),

  voice_failed: ({
    username,
    voiceName,
    reason,
    link,
  }: {
    username: string;
    voiceName: string;
    reason: string;
    link: string;
  }) =>
    render({
      subject: `Your Voice "${voiceName}" could not be trained`,
      paragraphs: [
        `Hello ${username},`,
        `Training your Voice "${voiceName}" stopped: ${reason}`,
        'Nothing was charged for it, and its training returned to your limits. Open the Voice to see what happened, then train it again or upload different writing.',
      ],
      action: { label: 'See what happened', url: link },
      footnote: 'You get this because "Voice ready or failed" is on in your account’s e-mail notices.',
    }),

  trial_ending: ({
    username,
    endsAt,
    amountCents,
    planLabel,
    link,
  }: { username: string; endsAt: Date; planLabel: string; link: string } & Amount) =>
    render({
      subject: 'Your OwnVoice trial ends tomorrow',
      paragraphs: [
        `Hello ${username},`,
        `Your trial ends on ${formatWhen(endsAt)}. Then the ${planLabel} plan starts and your saved card is charged ${formatUsd(amountCents)}.`,
        'To start sooner, stop before then, or choose another plan, open your account.',
      ],
      action: { label: 'Open my account', url: link },
      footnote: 'You get this because "Trial ends tomorrow" is on in your account’s e-mail notices.',
    }),

  payment_receipt: ({
    username,
    description,
    amountCents,
    paidAt,
    renewal,
    link,
  }: { username: string; description: string; paidAt: Date; renewal: boolean; link: string } & Amount) =>
    render({
      subject: renewal
        ? `Your OwnVoice plan renewed: ${formatUsd(amountCents)}`
        : `Receipt: ${formatUsd(amountCents)} to OwnVoice`,
      paragraphs: [
        `Hello ${username},`,
        renewal
          ? `Your plan renewed on ${formatWhen(paidAt)}: ${description}, ${formatUsd(amountCents)}. Thank you.`
          : `Thank you for your payment on ${formatWhen(paidAt)}: ${description}, ${formatUsd(amountCents)}.`,
        'Your account lists every payment and what it granted.',
      ],
      action: { label: 'See my usage and payments', url: link },
      footnote: 'You get this because "Receipts and renewals" is on in your account’s e-mail notices.',
    }),

  card_declined: ({
    username,
    amountCents,
    reason,
    link,
  }: { username: string; reason: string | null; link: string } & Amount) =>
    render({
      subject: 'Your OwnVoice payment did not go through',
      paragraphs: [
        `Hello ${username},`,
        `We could not take ${formatUsd(amountCents)} for your OwnVoice plan${reason ? `: ${reason}` : '.'}`,
        'Pay it with another card, or confirm it with your bank, from the link below; we also try the card again over the next days.',
      ],
      action: { label: 'Fix the payment', url: link },
    }),

  subscription_ending: ({
    username,
    planLabel,
    endsAt,
    link,
  }: {
    username: string;
    planLabel: string;
    endsAt: Date | null;
    link: string;
  }) =>
    render({
      subject: 'Your OwnVoice plan is cancelled',
      paragraphs: [
        `Hello ${username},`,
        endsAt
          ? `Your ${planLabel} plan is cancelled and ends on ${formatWhen(endsAt)}; it is not charged again. Until then everything works as before.`
          : `Your ${planLabel} plan is cancelled; it is not charged again.`,
        'Changed your mind? Reactivate it from your account before it ends.',
      ],
      action: { label: 'Open my account', url: link },
      footnote: 'You get this because "Plan cancelled or ending" is on in your account’s e-mail notices.',
    }),

  subscription_ended: ({ username, planLabel, link }: { username: string; planLabel: string; link: string }) =>
    render({
      subject: 'Your OwnVoice plan has ended',
      paragraphs: [
        `Hello ${username},`,
        `Your ${planLabel} plan has ended. Your Voices stay yours; choose a plan whenever you want to use them again.`,
      ],
      action: { label: 'Choose a plan', url: link },
      footnote: 'You get this because "Plan cancelled or ending" is on in your account’s e-mail notices.',
    }),

  refund: ({
    username,
    description,
    amountCents,
    takenBack,
    link,
  }: {
    username: string;
    description: string;
    /** What the refund took back of what the payment granted, in words; null when it had granted nothing. */
    takenBack: string | null;
    link: string;
  } & Amount) =>
    render({
      subject: `Refund: ${formatUsd(amountCents)} from OwnVoice`,
      paragraphs: [
        `Hello ${username},`,
        `We refunded ${formatUsd(amountCents)} for ${description}. Your bank shows it within 5–10 days.`,
        takenBack === null
          ? 'It had granted nothing, so nothing was taken back.'
          : `What it paid for was taken back: ${takenBack}.`,
      ],
      action: { label: 'See my usage and payments', url: link },
      footnote: 'You get this because "Refunds" is on in your account’s e-mail notices.',
    }),

  admin_invitation: ({
    inviterName,
    roleLabel,
    link,
    expiresAt,
  }: {
    inviterName: string;
    roleLabel: string;
    link: string;
    expiresAt: Date;
  }) =>
    render({
      subject: `You are invited to OwnVoice as ${roleLabel}`,
      paragraphs: [
        'Hello,',
        `${inviterName} invited this address to OwnVoice as ${roleLabel}. The link works once, until ${formatWhen(expiresAt)}; with it you create your account, or raise the role of the one you have with this address.`,
      ],
      action: { label: 'Open the invitation', url: link },
      footnote: 'If you did not expect this, ignore this message: nothing happens without the link.',
    }),

  new_sign_in: ({ username, device, when, link }: { username: string; device: string; when: Date; link: string }) =>
    render({
      subject: 'New sign-in to your OwnVoice account',
      paragraphs: [
        `Hello ${username},`,
        `Your account was signed in to from a browser it had not used before: ${device}, on ${formatWhen(when)}.`,
        'If it was you, nothing to do. If not, change your password now and turn on two-factor: your account page lists every sign-in.',
      ],
      action: { label: 'Review my account', url: link },
      footnote: 'You get this because "Sign-in from a new device" is on in your account’s e-mail notices.',
    }),

  two_factor_changed: ({ username, on, when, link }: { username: string; on: boolean; when: Date; link: string }) =>
    render({
      subject: on
        ? 'Two-factor is on for your OwnVoice account'
        : 'Two-factor was turned off for your OwnVoice account',
      paragraphs: [
        `Hello ${username},`,
        on
          ? `Two-factor sign-in was turned on on ${formatWhen(when)}: signing in now needs a code from your authenticator app. Keep your backup codes somewhere safe.`
          : `Two-factor sign-in was turned off on ${formatWhen(when)}: signing in now needs only your password.`,
        'If it was not you, change your password at once and turn two-factor on again.',
      ],
      action: { label: 'Open my account', url: link },
    }),

  api_key_created: ({
    username,
    keyName,
    shown,
    scopes,
    when,
    link,
  }: {
    username: string;
    keyName: string;
    /** The start of its secret, as the key list shows it. */
    shown: string;
    /** What it may do, in words. */
    scopes: string;
    when: Date;
    link: string;
  }) =>
    render({
      subject: 'A new API key for your OwnVoice account',
      paragraphs: [
        `Hello ${username},`,
        `An API key "${keyName}" (${shown}) was made for your OwnVoice account on ${formatWhen(when)}. Until it is revoked, a program with it may do this as you: ${scopes}.`,
        'If it was not you, revoke it on your account page at once, then choose a new password with "Forgot password?" on the login page: that signs everyone out and revokes every key.',
      ],
      action: { label: 'Review my API keys', url: link },
    }),
} satisfies Record<string, (data: never) => RenderedMail>;

export type MailKind = keyof typeof MAIL_MESSAGES;
export const MAIL_KINDS = Object.keys(MAIL_MESSAGES) as [MailKind, ...MailKind[]];
export type MailData<K extends MailKind> = Parameters<(typeof MAIL_MESSAGES)[K]>[0];

/**
 * The notice switch that governs each message; null for the ones that are always sent because the
 * person asked for them (links) or because they guard the account or its money.
 */
export const MAIL_NOTICE: Record<MailKind, NoticeKey | null> = {
  password_reset: null,
  verify_email: null,
  email_change_confirm: null,
  email_change_requested: 'security',
  email_changed: 'security',
  password_changed: 'security',
  voice_ready: 'voice_results',
  voice_failed: 'voice_results',
  trial_ending: 'trial_ending',
  payment_receipt: 'payments',
  card_declined: 'card_declined',
  subscription_ending: 'subscription_changes',
  subscription_ended: 'subscription_changes',
  refund: 'refunds',
  admin_invitation: null,
  new_sign_in: 'new_sign_in',
  two_factor_changed: 'security',
  api_key_created: 'security',
};
