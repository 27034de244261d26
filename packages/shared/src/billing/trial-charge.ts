// What a pay-later trial charges, and when, in the one statement every page that mentions it uses
// (the pay-later page, the test checkout and Stripe's, the success page, the plans page and the
// dialog that ends the trial early): nothing on the day the card is saved; when the Minimum plan
// starts, its first month plus the trial day (the pay-later first charge); then the plan's price.
import { PAY_LATER_FIRST_CHARGE_CENTS, TRIAL_LENGTH_MS } from './catalog.js';
import { formatUsd, planPriceCents } from './prices.js';

const MINIMUM_MONTH_CENTS = planPriceCents('minimum', 'monthly', { payNow: false });

/** "$10.00". */
export const TRIAL_FIRST_CHARGE = formatUsd(PAY_LATER_FIRST_CHARGE_CENTS);
/** "$8.99": the Minimum plan's monthly price after the first charge. */
export const MINIMUM_MONTH = formatUsd(MINIMUM_MONTH_CENTS);
export const TRIAL_HOURS = TRIAL_LENGTH_MS / (60 * 60 * 1000);
const TRIAL_DAY = formatUsd(PAY_LATER_FIRST_CHARGE_CENTS - MINIMUM_MONTH_CENTS);

/** What the first charge is made of and what follows it. */
export const TRIAL_CHARGE_STATEMENT = `The first charge is ${TRIAL_FIRST_CHARGE}: the Minimum plan's first month (${MINIMUM_MONTH}) and ${TRIAL_DAY} for the trial day. Then ${MINIMUM_MONTH} a month until you cancel.`;

/** When the first charge comes. */
export const TRIAL_PLAN_STARTS = `The Minimum plan starts after ${TRIAL_HOURS} hours, or sooner if you finish the trial.`;

/** Before the trial starts: nothing today, when the first charge comes, then the statement. */
export const TRIAL_START_STATEMENT = `Nothing is charged today. ${TRIAL_PLAN_STARTS} ${TRIAL_CHARGE_STATEMENT}`;
