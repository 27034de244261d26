// Every message rendered from one fixture each: its subject, its words and links in the text, the
// same link escaped in the HTML's href, hostile names escaped, and the footnote that names the
// notice switch a person can turn off (shared NOTICES' label). A new message without a fixture
// fails the typecheck. Then MailService.send: a muted notice is skipped, a required one never.
import { NOTICES } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailRepository } from '../repositories/mail.repository.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { formatWhen, type RenderedMail } from './layout.js';
import { MAIL_KINDS, MAIL_MESSAGES, MAIL_NOTICE, type MailData, type MailKind } from './messages.js';

const SITE = 'https://ownvoice.example';
/** A link with characters HTML must escape, different for each message. */
const linkOf = (kind: MailKind) => `${SITE}/${kind}?token=t0k3n&next=<home>`;
const escapedLinkOf = (kind: MailKind) => `${SITE}/${kind}?token=t0k3n&amp;next=&lt;home&gt;`;

const HOSTILE = 'Ann <script>alert("hi")</script>';
const HOSTILE_ESCAPED = 'Ann &lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt;';
const VOICE = 'Essays <img src=x onerror="boom">';
const VOICE_ESCAPED = 'Essays &lt;img src=x onerror=&quot;boom&quot;&gt;';
const WHEN = new Date('2026-11-27T14:05:00Z');
const WHEN_WORDS = '27 November 2026, 14:05 UTC';

const FIXTURES: { [K in MailKind]: MailData<K> } = {
  password_reset: { username: HOSTILE, link: linkOf('password_reset'), minutes: 60 },
  verify_email: { username: HOSTILE, link: linkOf('verify_email'), hours: 48 },
  email_change_confirm: { username: HOSTILE, link: linkOf('email_change_confirm'), hours: 48 },
  email_change_requested: {
    username: HOSTILE,
    newEmail: 'new.address@example.com',
    link: linkOf('email_change_requested'),
  },
  email_changed: { username: HOSTILE, newEmail: 'new.address@example.com', link: linkOf('email_changed') },
  password_changed: { username: HOSTILE, when: WHEN, link: linkOf('password_changed') },
  voice_ready: { username: HOSTILE, voiceName: VOICE, link: linkOf('voice_ready') },
  voice_failed: {
    username: HOSTILE,
    voiceName: VOICE,
    reason: 'there was not enough of your writing to learn from.',
    link: linkOf('voice_failed'),
  },
  trial_ending: {
    username: HOSTILE,
    endsAt: WHEN,
    amountCents: 1000,
    planLabel: 'Minimum',
    link: linkOf('trial_ending'),
  },
  payment_receipt: {
    username: HOSTILE,
    description: 'Pro (monthly)',
    amountCents: 2999,
    paidAt: WHEN,
    renewal: false,
    link: linkOf('payment_receipt'),
  },
  card_declined: {
    username: HOSTILE,
    amountCents: 899,
    reason: 'Your card was declined.',
    link: linkOf('card_declined'),
  },
  subscription_ending: {
    username: HOSTILE,
    planLabel: 'Pro (annual)',
    endsAt: WHEN,
    link: linkOf('subscription_ending'),
  },
  subscription_ended: { username: HOSTILE, planLabel: 'Virtuoso (monthly)', link: linkOf('subscription_ended') },
  refund: {
    username: HOSTILE,
    description: 'Pro (monthly)',
    amountCents: 1499,
    takenBack: '1 Voice training and 10 waking hours',
    link: linkOf('refund'),
  },
  admin_invitation: {
    inviterName: HOSTILE,
    roleLabel: 'Admin',
    link: linkOf('admin_invitation'),
    expiresAt: WHEN,
  },
  new_sign_in: { username: HOSTILE, device: 'Firefox on Linux', when: WHEN, link: linkOf('new_sign_in') },
  two_factor_changed: { username: HOSTILE, on: true, when: WHEN, link: linkOf('two_factor_changed') },
  api_key_created: {
    username: HOSTILE,
    keyName: VOICE,
    shown: 'ovk_3fQk9aBc…',
    scopes: 'Read your Voices and Convert text',
    when: WHEN,
    link: linkOf('api_key_created'),
  },
};

/** Each message's subject and the words its text must carry (amounts as $8.99, names, times). */
const EXPECTED: { [K in MailKind]: { subject: string; text: string[] } } = {
  password_reset: { subject: 'Reset your OwnVoice password', text: ['60 minutes'] },
  verify_email: { subject: 'Confirm your OwnVoice address', text: ['48 hours'] },
  email_change_confirm: { subject: 'Confirm your new OwnVoice address', text: ['48 hours'] },
  email_change_requested: {
    subject: 'Your OwnVoice address is about to change',
    text: ['new.address@example.com'],
  },
  email_changed: { subject: 'Your OwnVoice address was changed', text: ['now uses new.address@example.com'] },
  password_changed: { subject: 'Your OwnVoice password was changed', text: [WHEN_WORDS] },
  voice_ready: { subject: `Your Voice "${VOICE}" is ready`, text: [`Your Voice "${VOICE}" finished training`] },
  voice_failed: {
    subject: `Your Voice "${VOICE}" could not be trained`,
    text: [`Training your Voice "${VOICE}" stopped: there was not enough of your writing to learn from.`],
  },
  trial_ending: {
    subject: 'Your OwnVoice trial ends tomorrow',
    text: [`Your trial ends on ${WHEN_WORDS}`, 'the Minimum plan starts', 'charged $10.00'],
  },
  payment_receipt: { subject: 'Receipt: $29.99 to OwnVoice', text: [WHEN_WORDS, 'Pro (monthly), $29.99'] },
  card_declined: {
    subject: 'Your OwnVoice payment did not go through',
    text: ['We could not take $8.99 for your OwnVoice plan: Your card was declined.'],
  },
  subscription_ending: {
    subject: 'Your OwnVoice plan is cancelled',
    text: [`Your Pro (annual) plan is cancelled and ends on ${WHEN_WORDS}`],
  },
  subscription_ended: { subject: 'Your OwnVoice plan has ended', text: ['Your Virtuoso (monthly) plan has ended'] },
  refund: {
    subject: 'Refund: $14.99 from OwnVoice',
    text: ['We refunded $14.99 for Pro (monthly)', 'taken back: 1 Voice training and 10 waking hours.'],
  },
  admin_invitation: {
    subject: 'You are invited to OwnVoice as Admin',
    text: [`${HOSTILE} invited this address to OwnVoice as Admin`, `until ${WHEN_WORDS}`],
  },
  new_sign_in: { subject: 'New sign-in to your OwnVoice account', text: [`Firefox on Linux, on ${WHEN_WORDS}`] },
  two_factor_changed: {
    subject: 'Two-factor is on for your OwnVoice account',
    text: [`turned on on ${WHEN_WORDS}`],
  },
  api_key_created: {
    subject: 'A new API key for your OwnVoice account',
    text: [
      `An API key "${VOICE}" (ovk_3fQk9aBc…) was made for your OwnVoice account on ${WHEN_WORDS}`,
      'a program with it may do this as you: Read your Voices and Convert text.',
    ],
  },
};

const render = <K extends MailKind>(kind: K, data: MailData<K>): RenderedMail =>
  (MAIL_MESSAGES[kind] as (d: MailData<K>) => RenderedMail)(data);

describe('every message', () => {
  it('has a fixture and expectations for each kind', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual([...MAIL_KINDS].sort());
    expect(formatWhen(WHEN)).toBe(WHEN_WORDS);
  });

  describe.each(MAIL_KINDS)('%s', (kind) => {
    const mail = render(kind, FIXTURES[kind]);
    const expected = EXPECTED[kind];

    it('has its subject, and its words and link in the text', () => {
      expect(mail.subject).toBe(expected.subject);
      for (const words of expected.text) expect(mail.text).toContain(words);
      expect(mail.text).toContain(`: ${linkOf(kind)}`);
      expect(mail.text).toMatch(/— OwnVoice$/);
    });

    it('links the same address from the HTML, escaped', () => {
      expect(mail.html).toContain(`href="${escapedLinkOf(kind)}"`);
      expect(mail.html).not.toContain(linkOf(kind));
    });

    it('escapes hostile names in the HTML', () => {
      expect(mail.html).not.toContain('<script');
      expect(mail.html).not.toContain('<img');
      expect(mail.html).toContain(HOSTILE_ESCAPED);
      if ('voiceName' in FIXTURES[kind]) {
        expect(mail.html).toContain(VOICE_ESCAPED);
        // The subject is the page's title too.
        expect(mail.html).toContain(`<title>Your Voice &quot;${VOICE_ESCAPED}&quot;`);
      }
      // Hello <name>, in the text as written: plain text is never interpreted.
      if ('username' in FIXTURES[kind]) expect(mail.text).toContain(`Hello ${HOSTILE},`);
    });

    const notice = NOTICES.find((n) => n.key === MAIL_NOTICE[kind]);
    if (notice && !notice.required) {
      it(`names its switch, "${notice.label}", in the footnote`, () => {
        const footnote = `You get this because "${notice.label}" is on in your account’s e-mail notices.`;
        expect(mail.text).toContain(footnote);
        expect(mail.html).toContain(footnote.replaceAll('"', '&quot;'));
      });
    } else {
      it('has no switch to name: it is always sent', () => {
        expect(mail.text).not.toContain('e-mail notices');
      });
    }
  });

  it('words a renewal as a renewal', () => {
    const renewal = MAIL_MESSAGES.payment_receipt({ ...FIXTURES.payment_receipt, renewal: true });
    expect(renewal.subject).toBe('Your OwnVoice plan renewed: $29.99');
    expect(renewal.text).toContain(`Your plan renewed on ${WHEN_WORDS}: Pro (monthly), $29.99.`);
  });

  it('says when a refunded payment had granted nothing', () => {
    const refund = MAIL_MESSAGES.refund({ ...FIXTURES.refund, takenBack: null });
    expect(refund.text).toContain('It had granted nothing, so nothing was taken back.');
    expect(refund.text).not.toContain('taken back:');
  });

  it('says two-factor was turned off', () => {
    const off = MAIL_MESSAGES.two_factor_changed({ ...FIXTURES.two_factor_changed, on: false });
    expect(off.subject).toBe('Two-factor was turned off for your OwnVoice account');
    expect(off.text).toContain(`turned off on ${WHEN_WORDS}: signing in now needs only your password`);
  });

  it('ends a declined payment without a reason with a full stop', () => {
    const declined = MAIL_MESSAGES.card_declined({ ...FIXTURES.card_declined, reason: null });
    expect(declined.text).toContain('We could not take $8.99 for your OwnVoice plan.');
  });
});

describe('sending a notice', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  const rowOf = (id: string) => new MailRepository(ctx.database.db).find(id);

  it('skips a notice the person switched off, and never a required one', async () => {
    const { mail } = ctx.app.platform.services;
    const muted = NOTICES.filter((n) => !n.required).map((n) => n.key);
    const to = { email: 'muted@example.com', userId: null, mutedNotices: muted };
    expect(await mail.send(to, 'voice_ready', FIXTURES.voice_ready)).toBeNull();
    expect(await mail.send(to, 'payment_receipt', FIXTURES.payment_receipt)).toBeNull();
    expect(await mail.send(to, 'refund', FIXTURES.refund)).toBeNull();

    // Required notices go out whatever the list says (a stored list cannot hold them, but even so).
    const everything = { ...to, mutedNotices: NOTICES.map((n) => n.key) };
    const declined = await mail.send(everything, 'card_declined', FIXTURES.card_declined);
    const twoFactor = await mail.send(everything, 'two_factor_changed', FIXTURES.two_factor_changed);
    const reset = await mail.send(everything, 'password_reset', FIXTURES.password_reset);
    for (const id of [declined, twoFactor, reset]) expect(id).not.toBeNull();
    expect(await rowOf(declined ?? '')).toMatchObject({
      to: 'muted@example.com',
      kind: 'card_declined',
      subject: 'Your OwnVoice payment did not go through',
    });

    // A notice nobody muted is sent.
    const sent = await mail.send({ email: 'open@example.com', userId: null }, 'voice_ready', FIXTURES.voice_ready);
    expect(await rowOf(sent ?? '')).toMatchObject({ kind: 'voice_ready', subject: EXPECTED.voice_ready.subject });
  });
});
