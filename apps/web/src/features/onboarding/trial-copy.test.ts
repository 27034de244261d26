import { describe, expect, it } from 'vitest';
import { FIRST_CHARGE_TEXT, TRIAL_HOURS, trialAllowanceLines } from './trial-copy';

describe('the pay-later copy', () => {
  it('lists what the trial includes', () => {
    expect(trialAllowanceLines()).toEqual([
      '1 Voice training',
      '2 Voice waking hours',
      '20 proofreads',
      '10 short content',
      '1 Voice storage slot',
    ]);
  });

  it('states the trial length and the first charge', () => {
    expect(TRIAL_HOURS).toBe(24);
    expect(FIRST_CHARGE_TEXT).toBe('Your first charge is $10.00');
  });
});
