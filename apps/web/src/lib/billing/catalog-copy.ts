// What the plan and pack cards list, read from the one catalogue so the words and the numbers
// the server grants cannot drift apart.
import {
  type BillingCycle,
  GRANT_LIFETIME_MONTHS,
  PACK_LIFETIME_MONTHS,
  PACKS,
  type PackId,
  type PaidPlanName,
  PLANS,
  resourceAmount,
} from '@ownvoice/shared';
import { formatCount } from '../format';

const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The plan's resources, one line each, as the plans and landing pages list them. */
export function planFeatures(plan: PaidPlanName): string[] {
  const { perMonth, once, storageSlots, prioritySupport } = PLANS[plan];
  const onceTrainings: number = 'modelsTrained' in once ? once.modelsTrained : 0;
  const lines = [
    perMonth.modelsTrained > 0
      ? `${count(perMonth.modelsTrained, 'Voice training', 'Voice trainings')} a month`
      : `${count(onceTrainings, 'Voice training', 'Voice trainings')} (one-time)`,
    resourceAmount('storageSlots', storageSlots),
    `${resourceAmount('activationHours', perMonth.activationHours)} a month`,
    `${resourceAmount('chunkEdits', perMonth.chunkEdits)} a month`,
    `${resourceAmount('shortContent', perMonth.shortContent)} a month`,
  ];
  if (prioritySupport) lines.push('Priority support call');
  return lines;
}

/** How long a cycle's grant lasts, in the words of the plans page. */
export const grantLifetimeNote = (cycle: BillingCycle): string =>
  cycle === 'annual'
    ? `The whole year's usage up front, lasting ${GRANT_LIFETIME_MONTHS.annual / 12} years`
    : `Unused usage lasts ${GRANT_LIFETIME_MONTHS.monthly} months`;

/** "+1 Trainable Voice", "+100 Proofreads". */
export function packLabel(pack: PackId): string {
  const { resource, amount } = PACKS[pack];
  return `+${resourceAmount(resource, amount, { capitalized: true })}`;
}

export const PACK_LIFETIME_NOTE = `One-time purchase; lasts ${PACK_LIFETIME_MONTHS} months`;
export const STORAGE_PACK_NOTE = 'One-time purchase; the slots are yours for good';

/** Storage slots never expire; every other pack lasts like a monthly grant. */
export const packNote = (pack: PackId): string =>
  PACKS[pack].resource === 'storageSlots' ? STORAGE_PACK_NOTE : PACK_LIFETIME_NOTE;
