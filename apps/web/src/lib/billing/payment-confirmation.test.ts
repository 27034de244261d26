import { describe, expect, it } from 'vitest';
import { testUser } from '../test-user';
import {
  accountSnapshot,
  CONFIRMATION_POLL,
  clearSnapshot,
  confirmationState,
  grantArrived,
  readSnapshot,
  SNAPSHOT_KEY,
  saveSnapshot,
} from './payment-confirmation';
import { memorySessionStore } from './session-store';

const EXPIRY = '2026-06-01T00:00:00.000Z';
const before = testUser({
  plan: { name: 'minimum', billingCycle: 'monthly' },
  subscription: { status: 'active', stripeSubscriptionId: 'sub_1' },
  usageLimits: {
    modelStorageSlotsTotal: 3,
    modelStorageSlotsUsed: 1,
    modelsTrained: [{ amount: 1, expiresAt: EXPIRY }],
    chunkEdits: [{ amount: 200, expiresAt: EXPIRY }],
    shortContent: [],
    activationHours: [{ amount: 10, expiresAt: EXPIRY }],
  },
});
const withLimits = (limits: Partial<typeof before.usageLimits>) =>
  testUser({ ...before, usageLimits: { ...before.usageLimits, ...limits } });

describe('grantArrived', () => {
  const snap = accountSnapshot(before);

  it('sees a pack: one resource grew', () => {
    const after = withLimits({
      chunkEdits: [
        { amount: 200, expiresAt: EXPIRY },
        { amount: 100, expiresAt: EXPIRY },
      ],
    });
    expect(grantArrived(snap, accountSnapshot(after))).toBe(true);
    expect(grantArrived(snap, accountSnapshot(withLimits({ modelStorageSlotsTotal: 53 })))).toBe(true);
  });

  it('sees a plan change or a new subscription', () => {
    expect(grantArrived(snap, accountSnapshot(testUser({ ...before, plan: { ...before.plan, name: 'pro' } })))).toBe(
      true,
    );
    const trial = accountSnapshot(testUser({ plan: { name: 'none' } }));
    expect(grantArrived(trial, accountSnapshot(testUser({ plan: { name: 'trial' } })))).toBe(true);
  });

  it('ignores spending meanwhile and an unchanged account', () => {
    expect(grantArrived(snap, accountSnapshot(before))).toBe(false);
    expect(
      grantArrived(snap, accountSnapshot(withLimits({ activationHours: [{ amount: 9.5, expiresAt: EXPIRY }] }))),
    ).toBe(false);
  });
});

describe('the snapshot in the tab', () => {
  it('survives the trip to the payment provider and is cleared after', () => {
    const store = memorySessionStore();
    saveSnapshot(before, store);
    expect(readSnapshot(store)).toEqual(accountSnapshot(before));
    clearSnapshot(store);
    expect(readSnapshot(store)).toBeNull();
  });

  it('reads a damaged value as none', () => {
    const store = memorySessionStore();
    store.setItem(SNAPSHOT_KEY, '{not json');
    expect(readSnapshot(store)).toBeNull();
    store.setItem(SNAPSHOT_KEY, JSON.stringify({ plan: 'pro' }));
    expect(readSnapshot(store)).toBeNull();
  });
});

describe('confirmationState', () => {
  const snap = accountSnapshot(before);
  const grown = withLimits({ modelsTrained: [{ amount: 2, expiresAt: EXPIRY }] });

  it('keeps reading until the payment shows, then stops', () => {
    expect(confirmationState({ before: snap, current: before, attempts: 0 })).toBe('confirming');
    expect(confirmationState({ before: snap, current: before, attempts: CONFIRMATION_POLL.maxAttempts - 1 })).toBe(
      'confirming',
    );
    expect(confirmationState({ before: snap, current: grown, attempts: 1 })).toBe('confirmed');
  });

  it('says when the saved card started no trial, because the address or card had one before', () => {
    const refused = { ...before, plan: { ...before.plan, trialRefused: true } };
    expect(confirmationState({ before: snap, current: refused, attempts: 1 })).toBe('trial_refused');
    expect(confirmationState({ before: null, current: refused, attempts: 0 })).toBe('trial_refused');
  });

  it('gives up after the last read and says the payment is on its way', () => {
    expect(confirmationState({ before: snap, current: before, attempts: CONFIRMATION_POLL.maxAttempts })).toBe(
      'pending',
    );
  });

  it('has nothing to wait for without a snapshot', () => {
    expect(confirmationState({ before: null, current: grown, attempts: 0 })).toBe('unknown');
  });
});
