import { describe, expect, it } from 'vitest';
import { BILLING_CYCLES } from '../constants.js';
import { PACK_IDS, PAID_PLAN_NAMES, PLANS, TRIAL_ALLOWANCE } from './catalog.js';
import { addMonthsUtc, packGrant, planGrant, trialGrant } from './grants.js';

const at = new Date('2026-11-23T04:30:00.000Z');
const in3Months = new Date('2027-02-23T04:30:00.000Z');
const in2Years = new Date('2028-11-23T04:30:00.000Z');

describe('addMonthsUtc', () => {
  it('moves by calendar months, keeping the time of day', () => {
    expect(addMonthsUtc(at, 3)).toEqual(in3Months);
    expect(addMonthsUtc(at, 24)).toEqual(in2Years);
    expect(addMonthsUtc(new Date('2026-10-15T23:59:59.999Z'), 3)).toEqual(new Date('2027-01-15T23:59:59.999Z'));
  });

  it("clamps to the month's last day when the month is shorter", () => {
    expect(addMonthsUtc(new Date('2027-01-31T12:00:00Z'), 3)).toEqual(new Date('2027-04-30T12:00:00Z'));
    expect(addMonthsUtc(new Date('2026-11-30T00:00:00Z'), 3)).toEqual(new Date('2027-02-28T00:00:00Z'));
    expect(addMonthsUtc(new Date('2027-11-30T00:00:00Z'), 3)).toEqual(new Date('2028-02-29T00:00:00Z'));
    expect(addMonthsUtc(new Date('2028-02-29T08:00:00Z'), 24)).toEqual(new Date('2030-02-28T08:00:00Z'));
  });

  it('is always later, and by at most the months asked', () => {
    for (let day = 0; day < 800; day += 1) {
      const from = new Date(Date.UTC(2026, 0, 1 + day, 7));
      const to = addMonthsUtc(from, 3);
      expect(to.getTime()).toBeGreaterThan(from.getTime());
      expect((to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth()).toBe(3);
    }
  });
});

describe('planGrant', () => {
  it("grants a monthly period the month's resources, expiring 3 months later", () => {
    expect(planGrant('pro', 'monthly', at, { oneTimeAlreadyGranted: true })).toEqual({
      tranches: [
        { type: 'modelsTrained', amount: 3, expiresAt: in3Months },
        { type: 'chunkEdits', amount: 1000, expiresAt: in3Months },
        { type: 'shortContent', amount: 500, expiresAt: in3Months },
        { type: 'activationHours', amount: 50, expiresAt: in3Months },
      ],
      storageSlotsTotal: 20,
    });
  });

  it("grants an annual period the whole year's resources up front, expiring 2 years later", () => {
    expect(planGrant('virtuoso', 'annual', at, { oneTimeAlreadyGranted: true })).toEqual({
      tranches: [
        { type: 'modelsTrained', amount: 336, expiresAt: in2Years },
        { type: 'chunkEdits', amount: 120_000, expiresAt: in2Years },
        { type: 'shortContent', amount: 60_000, expiresAt: in2Years },
        { type: 'activationHours', amount: 2400, expiresAt: in2Years },
      ],
      storageSlotsTotal: 300,
    });
  });

  it("grants the minimum plan's one training once, not every period nor twelve times a year", () => {
    const trainings = (cycle: 'monthly' | 'annual', oneTimeAlreadyGranted: boolean) =>
      planGrant('minimum', cycle, at, { oneTimeAlreadyGranted }).tranches.find((t) => t.type === 'modelsTrained');
    expect(trainings('monthly', false)).toEqual({ type: 'modelsTrained', amount: 1, expiresAt: in3Months });
    expect(trainings('monthly', true)).toBeUndefined();
    expect(trainings('annual', false)).toEqual({ type: 'modelsTrained', amount: 1, expiresAt: in2Years });
    expect(trainings('annual', true)).toBeUndefined();
    expect(planGrant('minimum', 'monthly', at, { oneTimeAlreadyGranted: false }).tranches).toEqual([
      { type: 'modelsTrained', amount: 1, expiresAt: in3Months },
      { type: 'chunkEdits', amount: 200, expiresAt: in3Months },
      { type: 'shortContent', amount: 100, expiresAt: in3Months },
      { type: 'activationHours', amount: 10, expiresAt: in3Months },
    ]);
  });

  it('sets storage slots as the plan total, the same on either cycle', () => {
    for (const plan of PAID_PLAN_NAMES) {
      for (const cycle of BILLING_CYCLES) {
        const grant = planGrant(plan, cycle, at, { oneTimeAlreadyGranted: false });
        expect(grant.storageSlotsTotal).toBe(PLANS[plan].storageSlots);
        expect(grant.tranches.every((t) => t.amount > 0)).toBe(true);
      }
    }
  });

  it('grants a year as exactly twelve months of periodic resources, for every plan', () => {
    for (const plan of PAID_PLAN_NAMES) {
      const month = planGrant(plan, 'monthly', at, { oneTimeAlreadyGranted: true }).tranches;
      const year = planGrant(plan, 'annual', at, { oneTimeAlreadyGranted: true }).tranches;
      expect(year.map((t) => [t.type, t.amount])).toEqual(month.map((t) => [t.type, t.amount * 12]));
    }
  });
});

describe('packGrant', () => {
  it('grants a pack its content, expiring 3 months after payment', () => {
    expect(packGrant('extra_model', at)).toEqual({
      tranches: [{ type: 'modelsTrained', amount: 1, expiresAt: in3Months }],
      storageSlotsAdded: 0,
    });
    expect(packGrant('extra_activation_hours', at).tranches).toEqual([
      { type: 'activationHours', amount: 10, expiresAt: in3Months },
    ]);
    expect(packGrant('extra_chunk_edits', at).tranches).toEqual([
      { type: 'chunkEdits', amount: 100, expiresAt: in3Months },
    ]);
    expect(packGrant('extra_short_content', at).tranches).toEqual([
      { type: 'shortContent', amount: 100, expiresAt: in3Months },
    ]);
  });

  it('adds storage slots to the total, for good', () => {
    expect(packGrant('extra_storage_slots', at)).toEqual({ tranches: [], storageSlotsAdded: 50 });
  });

  it('grants every pack exactly one thing', () => {
    for (const id of PACK_IDS) {
      const grant = packGrant(id, at);
      expect(grant.tranches.length + (grant.storageSlotsAdded > 0 ? 1 : 0)).toBe(1);
    }
  });
});

describe('trialGrant', () => {
  it('grants a first training and a little of everything, lasting like a monthly grant', () => {
    expect(trialGrant(at)).toEqual({
      tranches: [
        { type: 'modelsTrained', amount: 1, expiresAt: in3Months },
        { type: 'chunkEdits', amount: 20, expiresAt: in3Months },
        { type: 'shortContent', amount: 10, expiresAt: in3Months },
        { type: 'activationHours', amount: 2, expiresAt: in3Months },
      ],
      storageSlotsTotal: 1,
    });
  });

  it('grants no more than the minimum plan it leads to', () => {
    const minimum = planGrant('minimum', 'monthly', at, { oneTimeAlreadyGranted: false });
    for (const tranche of trialGrant(at).tranches) {
      expect(tranche.amount).toBeLessThanOrEqual(minimum.tranches.find((t) => t.type === tranche.type)?.amount ?? 0);
    }
    expect(TRIAL_ALLOWANCE.storageSlots).toBeLessThanOrEqual(PLANS.minimum.storageSlots);
  });
});
