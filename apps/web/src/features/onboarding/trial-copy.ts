// What the pay-later page says the trial includes, read from the one trial allowance.
import { formatUsd, PAY_LATER_FIRST_CHARGE_CENTS, TRIAL_ALLOWANCE, TRIAL_LENGTH_MS } from '@ownvoice/shared';
import { formatCount } from '../../lib/format';

const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

export const TRIAL_HOURS = TRIAL_LENGTH_MS / (60 * 60 * 1000);

export const FIRST_CHARGE_TEXT = `Your first charge is ${formatUsd(PAY_LATER_FIRST_CHARGE_CENTS)}`;

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
