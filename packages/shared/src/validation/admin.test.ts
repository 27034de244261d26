import { describe, expect, it } from 'vitest';
import {
  ADMIN_MESSAGES,
  grantCreditsBodySchema,
  inviteBodySchema,
  limitsBodySchema,
  roleBodySchema,
  stripReasonMarkup,
} from './admin.js';

const userId = '0123456789abcdef01234567';

describe('granting credits', () => {
  it('clamps the amount to 0–10,000 and refuses fractions', () => {
    expect(grantCreditsBodySchema.parse({ userId, amount: 25_000, reason: 'Support refund' }).amount).toBe(10_000);
    expect(grantCreditsBodySchema.parse({ userId, amount: -5, reason: 'Support refund' }).amount).toBe(0);
    expect(grantCreditsBodySchema.safeParse({ userId, amount: 1.5, reason: 'Support refund' }).success).toBe(false);
  });

  it('strips < > " \' & from the reason, then needs 5 to 500 characters', () => {
    expect(stripReasonMarkup(' <b>"Goodwill" & thanks</b> ')).toBe('bGoodwill  thanks/b');
    const short = grantCreditsBodySchema.safeParse({ userId, amount: 5, reason: '<<>>ok&' });
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe(ADMIN_MESSAGES.reasonLength);
    expect(grantCreditsBodySchema.safeParse({ userId, amount: 5, reason: 'x'.repeat(501) }).success).toBe(false);
    expect(grantCreditsBodySchema.safeParse({ userId, amount: 5, reason: 'x'.repeat(500) }).success).toBe(true);
  });

  it('needs a user id', () => {
    expect(grantCreditsBodySchema.safeParse({ userId: 'nope', amount: 5, reason: 'Support refund' }).success).toBe(
      false,
    );
  });
});

describe('inviting an admin', () => {
  it('lower-cases and trims the e-mail and allows only admin roles', () => {
    expect(inviteBodySchema.parse({ email: '  New.Admin@Example.COM ', role: 'admin' }).email).toBe(
      'new.admin@example.com',
    );
    expect(inviteBodySchema.safeParse({ email: 'a@example.com', role: 'user' }).success).toBe(false);
    expect(inviteBodySchema.safeParse({ email: 'not an address', role: 'admin' }).success).toBe(false);
    expect(inviteBodySchema.safeParse({ email: `${'a'.repeat(95)}@example.com`, role: 'admin' }).success).toBe(false);
  });
});

describe('roles and limits', () => {
  it('knows the three roles', () => {
    expect(roleBodySchema.safeParse({ role: 'super_admin' }).success).toBe(true);
    expect(roleBodySchema.safeParse({ role: 'owner' }).success).toBe(false);
  });

  it('takes any one change, and refuses an empty edit', () => {
    expect(limitsBodySchema.safeParse({}).error?.issues[0]?.message).toBe(ADMIN_MESSAGES.limitsEmpty);
    expect(
      limitsBodySchema.safeParse({
        usageGrant: { type: 'chunkEdits', amount: 100, expiresAt: '2027-01-01T00:00:00Z' },
      }).success,
    ).toBe(true);
    expect(limitsBodySchema.safeParse({ usageLimits: { modelStorageSlotsTotal: 12 } }).success).toBe(true);
    expect(limitsBodySchema.safeParse({ onboarding: { step: 'tutorial_complete' } }).success).toBe(true);
  });

  it('needs a whole, non-negative grant with a real expiry', () => {
    const grant = (amount: number, expiresAt: string) =>
      limitsBodySchema.safeParse({ usageGrant: { type: 'modelsTrained', amount, expiresAt } }).success;
    expect(grant(-1, '2027-01-01T00:00:00Z')).toBe(false);
    expect(grant(1.5, '2027-01-01T00:00:00Z')).toBe(false);
    expect(grant(1, 'next tuesday')).toBe(false);
  });
});
