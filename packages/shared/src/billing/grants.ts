// What a paid period, a pack or the trial grants. Expiring resources come as tranches (an amount
// and an expiry); storage slots are a total, never a tranche. Amounts are in shown units (hours
// for waking hours); the server converts to its stored units.
import { type BillingCycle, TRANCHE_TYPES, type TrancheType } from '../constants.js';
import {
  GRANT_LIFETIME_MONTHS,
  PACK_LIFETIME_MONTHS,
  PACKS,
  type PackId,
  type PaidPlanName,
  PLANS,
  TRIAL_ALLOWANCE,
} from './catalog.js';

export interface TrancheGrant {
  type: TrancheType;
  amount: number;
  expiresAt: Date;
}

export interface PlanGrant {
  tranches: TrancheGrant[];
  /** The plan's storage slots: the account's total becomes this plus the slots it bought in packs. */
  storageSlotsTotal: number;
}

export interface PackGrant {
  tranches: TrancheGrant[];
  /** Slots added to the account's total for good (they do not expire). */
  storageSlotsAdded: number;
}

/**
 * `months` calendar months after `at`, in UTC, on the same day of the month or the month's last
 * day when it is shorter (31 January + 3 months = 30 April), as payment periods are counted.
 */
export function addMonthsUtc(at: Date, months: number): Date {
  if (!Number.isInteger(months)) throw new RangeError(`Months must be whole, not ${months}.`);
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(at.getUTCDate(), lastDay),
      at.getUTCHours(),
      at.getUTCMinutes(),
      at.getUTCSeconds(),
      at.getUTCMilliseconds(),
    ),
  );
}

function tranches(amounts: Partial<Record<TrancheType, number>>, expiresAt: Date): TrancheGrant[] {
  return TRANCHE_TYPES.flatMap((type) => {
    const amount = amounts[type] ?? 0;
    return amount > 0 ? [{ type, amount, expiresAt }] : [];
  });
}

export interface PlanGrantOptions {
  /** The account already had the plan's one-time resources (the minimum plan's training). */
  oneTimeAlreadyGranted: boolean;
}

/**
 * What one paid period of a plan grants at `grantedAt`: a month's resources lasting 3 months, or
 * on an annual plan the whole year's (twelve months' worth) at once, lasting 2 years. One-time
 * resources come once per account, with the same expiry, never multiplied by twelve.
 */
export function planGrant(
  plan: PaidPlanName,
  cycle: BillingCycle,
  grantedAt: Date,
  { oneTimeAlreadyGranted }: PlanGrantOptions,
): PlanGrant {
  const definition = PLANS[plan];
  const months = cycle === 'annual' ? 12 : 1;
  const once: Partial<Record<TrancheType, number>> = oneTimeAlreadyGranted ? {} : definition.once;
  const amounts = Object.fromEntries(
    TRANCHE_TYPES.map((type) => [type, definition.perMonth[type] * months + (once[type] ?? 0)]),
  ) as Record<TrancheType, number>;
  return {
    tranches: tranches(amounts, addMonthsUtc(grantedAt, GRANT_LIFETIME_MONTHS[cycle])),
    storageSlotsTotal: definition.storageSlots,
  };
}

/** What a pack grants when paid at `paidAt`: its resources last as long as a monthly grant. */
export function packGrant(pack: PackId, paidAt: Date): PackGrant {
  const { resource, amount } = PACKS[pack];
  if (resource === 'storageSlots') return { tranches: [], storageSlotsAdded: amount };
  return {
    tranches: tranches({ [resource]: amount }, addMonthsUtc(paidAt, PACK_LIFETIME_MONTHS)),
    storageSlotsAdded: 0,
  };
}

/** What the trial grants when it starts; the plan that follows replaces its storage slots. */
export function trialGrant(startedAt: Date): PlanGrant {
  return {
    tranches: tranches(TRIAL_ALLOWANCE.resources, addMonthsUtc(startedAt, TRIAL_ALLOWANCE.lifetimeMonths)),
    storageSlotsTotal: TRIAL_ALLOWANCE.storageSlots,
  };
}
