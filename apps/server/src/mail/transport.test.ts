// Where mail goes: the SMTP transport hands a message on only to the one plain address it names.
// An address a mailer reads as another one (group syntax, a quoted local part, a comment, a list)
// is refused, so the address an account is compared by is the one its mail reaches (decision 33).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recipientOf, startTestMailServer, type TestMailServer } from '../test/mail-server.js';
import { smtpTransport } from './transport.js';

let smtp: TestMailServer;

beforeAll(async () => {
  smtp = await startTestMailServer();
});
afterAll(() => smtp.close());

const message = (to: string) => ({
  id: `m-${Math.random()}`,
  to,
  subject: 'Hello',
  text: 'Hello',
  html: '<p>Hello</p>',
});

describe('the SMTP transport', () => {
  it('delivers to a plain address', async () => {
    const transport = smtpTransport(smtp.url, 'OwnVoice <no-reply@ownvoice.test>');
    await transport.send(message('writer@example.com'));
    expect(recipientOf(await smtp.waitFor((m) => recipientOf(m) === 'writer@example.com'))).toBe('writer@example.com');
    transport.close();
  });

  it('refuses an address the mailer would read as another one, and sends nothing', async () => {
    const transport = smtpTransport(smtp.url, 'OwnVoice <no-reply@ownvoice.test>');
    const before = smtp.received.length;
    for (const to of [
      'g:victim@example.com;',
      '"victim"@example.com',
      'v(note)@example.com',
      'a@example.com, b@example.com',
    ]) {
      await expect(transport.send(message(to)), to).rejects.toThrow(/not one plain address/);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.received.slice(before).map(recipientOf)).toEqual([]);
    transport.close();
  });
});
