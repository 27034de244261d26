// A user as the server sends it, for unit tests of any feature.
import type { User } from '@ownvoice/shared';

type UserOverrides = Partial<Omit<User, 'plan' | 'subscription'>> & {
  plan?: Partial<User['plan']>;
  subscription?: Partial<User['subscription']>;
};

export const testUser = ({ plan, subscription, ...rest }: UserOverrides = {}): User => ({
  id: '0123456789abcdef01234567',
  _id: '0123456789abcdef01234567',
  username: 'writer',
  email: 'writer@example.com',
  role: 'user',
  mfaEnabled: false,
  emailVerified: true,
  pendingEmail: null,
  mutedNotices: [],
  plan: {
    name: 'none',
    billingCycle: null,
    payNowDiscount: false,
    trialEndsAt: null,
    payNowAvailable: true,
    trialRefused: false,
    ...plan,
  },
  subscription: {
    status: null,
    cancelAtPeriodEnd: false,
    stripeSubscriptionId: null,
    currentPeriodEnd: null,
    pendingChange: null,
    paymentDue: null,
    ...subscription,
  },
  onboarding: { step: 'tutorial_complete' },
  usageLimits: {
    modelStorageSlotsTotal: 3,
    modelStorageSlotsUsed: 0,
    modelsTrained: [],
    chunkEdits: [],
    shortContent: [],
    activationHours: [],
  },
  credits: 0,
  createdAt: '2026-03-04T10:00:00.000Z',
  ...rest,
});
