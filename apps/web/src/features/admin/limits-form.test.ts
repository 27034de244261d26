import { ADMIN_MESSAGES } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../lib/test-user';
import {
  expiryIso,
  LIMITS_FORM_MESSAGES,
  type LimitsFormValues,
  limitsFormFrom,
  limitsRequestBody,
  stepLabel,
} from './limits-form';

const user = testUser({
  plan: { name: 'pro', billingCycle: 'monthly' },
  subscription: { status: 'active' },
  onboarding: { step: 'training_started' },
});
const now = new Date('2026-03-04T10:00:00.000Z');
const form = (changes: Partial<LimitsFormValues> = {}): LimitsFormValues => ({ ...limitsFormFrom(user), ...changes });

describe('the limits form', () => {
  it("starts from the user's values with no grant", () => {
    expect(limitsFormFrom(user)).toEqual({
      grantType: null,
      grantAmount: '',
      grantExpiry: '',
      storageSlotsTotal: 3,
      planName: 'pro',
      billingCycle: 'monthly',
      onboardingStep: 'training_started',
      subscriptionStatus: 'active',
    });
  });

  it('refuses to send an unchanged form', () => {
    expect(limitsRequestBody(form(), user, now)).toEqual({ ok: false, message: ADMIN_MESSAGES.limitsEmpty });
  });

  it('sends only what changed', () => {
    expect(limitsRequestBody(form({ storageSlotsTotal: 12 }), user, now)).toEqual({
      ok: true,
      body: { usageLimits: { modelStorageSlotsTotal: 12 } },
    });
    expect(
      limitsRequestBody(form({ onboardingStep: 'tutorial_complete', subscriptionStatus: 'canceled' }), user, now),
    ).toEqual({ ok: true, body: { onboarding: { step: 'tutorial_complete' }, subscription: { status: 'canceled' } } });
  });

  it('sends the plan with its cycle when either changed', () => {
    expect(limitsRequestBody(form({ billingCycle: 'annual' }), user, now)).toEqual({
      ok: true,
      body: { plan: { name: 'pro', billingCycle: 'annual' } },
    });
    expect(limitsRequestBody(form({ planName: 'none', billingCycle: null }), user, now)).toEqual({
      ok: true,
      body: { plan: { name: 'none' } },
    });
  });

  it('treats an emptied storage box as unchanged', () => {
    expect(limitsRequestBody(form({ storageSlotsTotal: '', onboardingStep: 'tutorial_complete' }), user, now)).toEqual({
      ok: true,
      body: { onboarding: { step: 'tutorial_complete' } },
    });
  });

  it('needs all three parts of a usage grant, lasting to the end of the day', () => {
    expect(limitsRequestBody(form({ grantType: 'chunkEdits' }), user, now)).toEqual({
      ok: false,
      message: LIMITS_FORM_MESSAGES.grantIncomplete,
    });
    expect(limitsRequestBody(form({ grantAmount: 5, grantExpiry: '2026-04-01' }), user, now).ok).toBe(false);
    expect(
      limitsRequestBody(form({ grantType: 'chunkEdits', grantAmount: 500, grantExpiry: '2026-04-01' }), user, now),
    ).toEqual({
      ok: true,
      body: { usageGrant: { type: 'chunkEdits', amount: 500, expiresAt: '2026-04-01T23:59:59.000Z' } },
    });
  });

  it('refuses a grant of nothing, or one that has already expired', () => {
    const grant = (grantAmount: number, grantExpiry: string) =>
      limitsRequestBody(form({ grantType: 'modelsTrained', grantAmount, grantExpiry }), user, now);
    expect(grant(0, '2026-04-01')).toEqual({ ok: false, message: LIMITS_FORM_MESSAGES.grantAmount });
    expect(grant(1, '2026-03-03')).toEqual({ ok: false, message: LIMITS_FORM_MESSAGES.expiryPast });
    expect(grant(1, '2026-03-04').ok).toBe(true);
    expect(grant(1, '2026-02-30')).toEqual({ ok: false, message: LIMITS_FORM_MESSAGES.expiryInvalid });
  });

  it('reads a date input as the end of that UTC day', () => {
    expect(expiryIso('2026-12-31')).toBe('2026-12-31T23:59:59.000Z');
    expect(expiryIso('31/12/2026')).toBeNull();
    expect(expiryIso('')).toBeNull();
  });

  it('names onboarding steps in words', () => {
    expect(stepLabel('create_quickstart_complete')).toBe('Create quickstart complete');
  });
});
