// Every message the service sends, one function each: what it says, built from its data and the
// links the caller made from OWNVOICE_PUBLIC_URL. Rendering is layout.ts's.
import { type RenderedMail, render } from './layout.js';

export const MAIL_KINDS = ['password_reset'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export const MAIL_MESSAGES = {
  password_reset: ({ username, link, minutes }: { username: string; link: string; minutes: number }): RenderedMail =>
    render({
      subject: 'Reset your OwnVoice password',
      paragraphs: [
        `Hello ${username},`,
        `Someone asked to reset the password of your OwnVoice account. The link below works once, for ${minutes} minutes; choosing a new password signs you out everywhere else.`,
      ],
      action: { label: 'Choose a new password', url: link },
      footnote: 'If it was not you, ignore this message: your password stays as it is.',
    }),
} satisfies Record<MailKind, (data: never) => RenderedMail>;
