import { describe, expect, it } from 'vitest';
import { PLAN_NAMES, RESOURCE_KEYS, TRANCHE_TYPES } from '../constants.js';
import { isPaidPlan } from '../onboarding.js';
import { isPaidPlanName, PACK_IDS, PACKS, PAID_PLAN_NAMES, PAY_LATER_FIRST_CHARGE_CENTS, PLANS } from './catalog.js';
import { billingCycleSchema, packIdSchema, paidPlanNameSchema, planSelectionSchema } from './schemas.js';

describe('the price table', () => {
  it('holds the three plans at their monthly prices, with their resources', () => {
    expect(PLANS.minimum).toEqual({
      tier: 1,
      monthlyCents: 899,
      storageSlots: 3,
      perMonth: { modelsTrained: 0, activationHours: 10, chunkEdits: 200, shortContent: 100 },
      once: { modelsTrained: 1 },
      prioritySupport: false,
    });
    expect(PLANS.pro).toEqual({
      tier: 2,
      monthlyCents: 3699,
      storageSlots: 20,
      perMonth: { modelsTrained: 3, activationHours: 50, chunkEdits: 1000, shortContent: 500 },
      once: {},
      prioritySupport: false,
    });
    expect(PLANS.virtuoso).toEqual({
      tier: 3,
      monthlyCents: 29999,
      storageSlots: 300,
      perMonth: { modelsTrained: 28, activationHours: 200, chunkEdits: 10000, shortContent: 5000 },
      once: {},
      prioritySupport: true,
    });
  });

  it('holds the five packs with their content and prices', () => {
    expect(PACKS).toEqual({
      extra_model: { resource: 'modelsTrained', amount: 1, priceCents: 899 },
      extra_activation_hours: { resource: 'activationHours', amount: 10, priceCents: 799 },
      extra_chunk_edits: { resource: 'chunkEdits', amount: 100, priceCents: 499 },
      extra_short_content: { resource: 'shortContent', amount: 100, priceCents: 899 },
      extra_storage_slots: { resource: 'storageSlots', amount: 50, priceCents: 1499 },
    });
    expect(Object.keys(PACKS)).toEqual([...PACK_IDS]);
    expect(PAY_LATER_FIRST_CHARGE_CENTS).toBe(1000);
  });

  it('names resources and plans with the keys used everywhere else', () => {
    for (const plan of PAID_PLAN_NAMES) {
      expect(Object.keys(PLANS[plan].perMonth).sort()).toEqual([...TRANCHE_TYPES].sort());
      for (const type of Object.keys(PLANS[plan].once)) expect(TRANCHE_TYPES).toContain(type);
    }
    expect(PACK_IDS.map((id) => PACKS[id].resource).sort()).toEqual([...RESOURCE_KEYS].sort());
    expect(Object.keys(PLANS)).toEqual([...PAID_PLAN_NAMES]);
  });

  it('keeps every price and amount a whole, positive number', () => {
    for (const plan of PAID_PLAN_NAMES) expect(Number.isSafeInteger(PLANS[plan].monthlyCents)).toBe(true);
    for (const id of PACK_IDS) {
      expect(Number.isSafeInteger(PACKS[id].priceCents) && PACKS[id].priceCents > 0).toBe(true);
      expect(Number.isSafeInteger(PACKS[id].amount) && PACKS[id].amount > 0).toBe(true);
    }
  });

  it('agrees with isPaidPlan on which plans are paid', () => {
    for (const plan of PLAN_NAMES) expect(isPaidPlanName(plan)).toBe(isPaidPlan(plan));
  });
});

describe('the billing schemas', () => {
  it('accept only plans that can be bought, the two cycles and the five packs', () => {
    expect(paidPlanNameSchema.safeParse('pro').success).toBe(true);
    expect(paidPlanNameSchema.safeParse('trial').success).toBe(false);
    expect(paidPlanNameSchema.safeParse('none').success).toBe(false);
    expect(billingCycleSchema.safeParse('annual').success).toBe(true);
    expect(billingCycleSchema.safeParse('weekly').success).toBe(false);
    expect(packIdSchema.safeParse('extra_chunk_edits').success).toBe(true);
    expect(packIdSchema.safeParse('extra_credits').success).toBe(false);
    expect(planSelectionSchema.safeParse({ plan: 'virtuoso', billingCycle: 'monthly' }).success).toBe(true);
    expect(planSelectionSchema.safeParse({ plan: 'virtuoso' }).success).toBe(false);
  });
});
