// The one price-and-resource table: every plan, pack and price the product sells, in integer
// cents (never floating-point dollars). The server, the plans page and the landing page all read
// it; the rules over it are in prices.ts, grants.ts, plan-change.ts and pack-matching.ts, and
// the choices they rest on in docs/decisions/0011-prices-and-grants.md.
import type { PlanName, ResourceKey, TrancheType } from '../constants.js';

/** The plans a person can pay for, lowest tier first; trial and none are not sold. */
export const PAID_PLAN_NAMES = ['minimum', 'pro', 'virtuoso'] as const satisfies readonly PlanName[];
export type PaidPlanName = (typeof PAID_PLAN_NAMES)[number];

export const isPaidPlanName = (plan: PlanName): plan is PaidPlanName =>
  (PAID_PLAN_NAMES as readonly PlanName[]).includes(plan);

/** Amounts of the expiring resources, in shown units: hours for waking hours, else units. */
export type TrancheAmounts = Readonly<Record<TrancheType, number>>;

export interface PlanDefinition {
  /** Upgrade and downgrade are decided by this order. */
  readonly tier: number;
  readonly monthlyCents: number;
  /** Storage slots are a total the plan sets, not a grant that adds up or expires. */
  readonly storageSlots: number;
  /** Granted every month (twelve times over, at once, on an annual plan). */
  readonly perMonth: TrancheAmounts;
  /** Granted once per account, with the first grant of the plan, never again. */
  readonly once: Readonly<Partial<Record<TrancheType, number>>>;
  readonly prioritySupport: boolean;
}

export const PLANS = {
  minimum: {
    tier: 1,
    monthlyCents: 899,
    storageSlots: 3,
    perMonth: { modelsTrained: 0, activationHours: 10, chunkEdits: 200, shortContent: 100 },
    once: { modelsTrained: 1 },
    prioritySupport: false,
  },
  pro: {
    tier: 2,
    monthlyCents: 3699,
    storageSlots: 20,
    perMonth: { modelsTrained: 3, activationHours: 50, chunkEdits: 1000, shortContent: 500 },
    once: {},
    prioritySupport: false,
  },
  virtuoso: {
    tier: 3,
    monthlyCents: 29999,
    storageSlots: 300,
    perMonth: { modelsTrained: 28, activationHours: 200, chunkEdits: 10_000, shortContent: 5000 },
    once: {},
    prioritySupport: true,
  },
} as const satisfies Record<PaidPlanName, PlanDefinition>;
export type Plans = typeof PLANS;

/** One-time top-up packs, in the order the plans page shows them. */
export const PACK_IDS = [
  'extra_model',
  'extra_activation_hours',
  'extra_chunk_edits',
  'extra_short_content',
  'extra_storage_slots',
] as const;
export type PackId = (typeof PACK_IDS)[number];

export interface PackDefinition {
  /** The one resource the pack adds; the checkout's metadata names it with the amount. */
  readonly resource: ResourceKey;
  /** In shown units (hours for waking hours). */
  readonly amount: number;
  readonly priceCents: number;
}

export const PACKS = {
  extra_model: { resource: 'modelsTrained', amount: 1, priceCents: 899 },
  extra_activation_hours: { resource: 'activationHours', amount: 10, priceCents: 799 },
  extra_chunk_edits: { resource: 'chunkEdits', amount: 100, priceCents: 499 },
  extra_short_content: { resource: 'shortContent', amount: 100, priceCents: 899 },
  extra_storage_slots: { resource: 'storageSlots', amount: 50, priceCents: 1499 },
} as const satisfies Record<PackId, PackDefinition>;
export type Packs = typeof PACKS;

/** Annual billing costs this much less than twelve monthly payments. */
export const ANNUAL_DISCOUNT_PERCENT = 20;
/** Choosing to pay now at onboarding takes this much off every plan payment, for life. */
export const PAY_NOW_DISCOUNT_PERCENT = 15;
/** What the pay-later page says the first charge will be. */
export const PAY_LATER_FIRST_CHARGE_CENTS = 1000;

/** How long a plan's grant lasts, in calendar months from the grant. */
export const GRANT_LIFETIME_MONTHS = { monthly: 3, annual: 24 } as const;
/** A pack lasts as long as a monthly grant, whoever buys it. */
export const PACK_LIFETIME_MONTHS = 3;

/**
 * What a trial grants: enough to train a first Voice, wake it and try Convert and Create during
 * the day before the minimum plan starts. It lasts as long as a monthly grant, so what is left
 * carries into the plan.
 */
export const TRIAL_ALLOWANCE = {
  resources: { modelsTrained: 1, activationHours: 2, chunkEdits: 20, shortContent: 10 },
  storageSlots: 1,
  lifetimeMonths: 3,
} as const satisfies { resources: TrancheAmounts; storageSlots: number; lifetimeMonths: number };

/** An unfinished trial starts the minimum plan this long after it began. */
export const TRIAL_LENGTH_MS = 24 * 60 * 60 * 1000;
