// What the pay-later page says the trial includes, read from the one trial allowance.
import { MINIMUM_MONTH, TRIAL_ALLOWANCE, TRIAL_FIRST_CHARGE, TRIAL_HOURS } from '@ownvoice/shared';
import { formatCount } from '../../lib/format';

const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The choice card's short form of the trial charge statement (TRIAL_START_STATEMENT). */
export const FIRST_CHARGE_TEXT = `Nothing today; your first charge is ${TRIAL_FIRST_CHARGE} after ${TRIAL_HOURS} hours, then ${MINIMUM_MONTH} a month`;

export function trialAllowanceLines(): string[] {
  const { resources, storageSlots } = TRIAL_ALLOWANCE;
  return [
    count(resources.modelsTrained, 'Voice training', 'Voice trainings'),
    count(resources.activationHours, 'Voice waking hour', 'Voice waking hours'),
    count(resources.chunkEdits, 'proofread', 'proofreads'),
    `${formatCount(resources.shortContent)} short content`,
    count(storageSlots, 'Voice storage slot', 'Voice storage slots'),
  ];
}
