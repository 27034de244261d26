// Where e-mail goes. With SMTP_URL, to that server through nodemailer; without it (the embedded
// default, which needs no mail server) each message is written to the data folder's outbox, only
// its owner may read it, and its links are logged, so a person running `npm start` can still open
// a password-reset link.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';

export interface OutgoingMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  /** Where it sends, in words, for the log and the admin console. */
  readonly description: string;
  /** True when messages stay on this machine (no SMTP_URL): the admin console may show them. */
  readonly outbox: boolean;
  /** The file the outbox writes message `id` to; null when messages leave the machine. */
  fileOf(id: string): string | null;
  /** Resolves once the message was handed on; throws when it could not be. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * Whether the mailer reads `to` as exactly that one address, and not a group, a list, a quoted or
 * commented form of another (decision 33): accounts are told apart by the address they store, so
 * their mail must reach that address and no other.
 */
export function isPlainRecipient(to: string): boolean {
  const [one, ...more] = addressparser(to);
  return more.length === 0 && one !== undefined && 'address' in one && one.address === to && one.name === '';
}

/** `smtp://user:pass@host:587` or `smtps://…:465`; `from` is MAIL_FROM. */
export function smtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    description: `SMTP ${new URL(url).host}`,
    outbox: false,
    fileOf: () => null,
    async send(mail) {
      if (!isPlainRecipient(mail.to))
        throw new Error(`${mail.to} is not one plain address: it would reach another one`);
      await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: `<${mail.id}@ownvoice>`,
      });
    },
    close: () => transporter.close(),
  };
}

/** The links of a message's text, one per line, as the log shows them. */
export const linksIn = (text: string): string[] => text.match(/https?:\/\/\S+/g) ?? [];

export function outboxTransport(dir: string, log: { info(msg: string): void }): MailTransport {
  const fileOf = (id: string): string => path.join(dir, `${id}.json`);
  return {
    description: `the outbox folder ${dir}`,
    outbox: true,
    fileOf,
    async send(mail) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = fileOf(mail.id);
      await writeFile(file, `${JSON.stringify({ ...mail, writtenAt: new Date().toISOString() }, null, 2)}\n`, {
        mode: 0o600,
      });
      await chmod(file, 0o600);
      const links = linksIn(mail.text);
      log.info(
        `mail to ${mail.to} ("${mail.subject}") written to ${file}${links.length ? `; its links: ${links.join(' ')}` : ''}`,
      );
    },
    close: () => {},
  };
}
