import { describe, expect, it } from 'vitest';
import { FIRST_CHARGE_TEXT, trialAllowanceLines } from './trial-copy';

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

  it('states what is charged when, in short', () => {
    expect(FIRST_CHARGE_TEXT).toBe('Nothing today; your first charge is $10.00 after 24 hours, then $8.99 a month');
  });
});
