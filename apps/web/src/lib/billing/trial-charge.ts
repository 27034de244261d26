// What ending the trial charges, in one statement every page that mentions it uses: the first
// charge is the Minimum plan's first month plus the trial day (the pay-later first charge), then
// the plan's price each month.
import { formatUsd, PAY_LATER_FIRST_CHARGE_CENTS, planPriceCents } from '@ownvoice/shared';

export const TRIAL_FIRST_CHARGE = formatUsd(PAY_LATER_FIRST_CHARGE_CENTS);
const MINIMUM_MONTH_CENTS = planPriceCents('minimum', 'monthly', { payNow: false });
export const MINIMUM_MONTH = formatUsd(MINIMUM_MONTH_CENTS);
const TRIAL_DAY = formatUsd(PAY_LATER_FIRST_CHARGE_CENTS - MINIMUM_MONTH_CENTS);

/** "The first charge is $10.00: … Then $8.99 a month until you cancel." */
export const TRIAL_CHARGE_STATEMENT = `The first charge is ${TRIAL_FIRST_CHARGE}: the Minimum plan's first month (${MINIMUM_MONTH}) and ${TRIAL_DAY} for the trial day. Then ${MINIMUM_MONTH} a month until you cancel.`;
