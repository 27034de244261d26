import { describe, expect, it } from 'vitest';
import { grantLifetimeNote, packLabel, packNote, planFeatures } from './catalog-copy';

describe('planFeatures', () => {
  it("says the minimum plan's one Voice training is one-time", () => {
    expect(planFeatures('minimum')).toEqual([
      '1 Voice training (one-time)',
      '3 Voice storage slots',
      '10 Voice waking hours a month',
      '200 proofreads a month',
      '100 short content a month',
    ]);
  });

  it('lists monthly trainings and priority support where the plan has them', () => {
    expect(planFeatures('pro')[0]).toBe('3 Voice trainings a month');
    expect(planFeatures('pro')).not.toContain('Priority support call');
    expect(planFeatures('virtuoso')).toEqual([
      '28 Voice trainings a month',
      '300 Voice storage slots',
      '200 Voice waking hours a month',
      '10,000 proofreads a month',
      '5,000 short content a month',
      'Priority support call',
    ]);
  });

  it('says how long each cycle grant lasts', () => {
    expect(grantLifetimeNote('monthly')).toBe('Unused usage lasts 3 months');
    expect(grantLifetimeNote('annual')).toBe("The whole year's usage up front, lasting 2 years");
  });
});

describe('packLabel', () => {
  it('names what each pack adds', () => {
    expect(packLabel('extra_model')).toBe('+1 Trainable Voice');
    expect(packLabel('extra_activation_hours')).toBe('+10 Voice waking hours');
    expect(packLabel('extra_chunk_edits')).toBe('+100 Proofreads');
    expect(packLabel('extra_short_content')).toBe('+100 Short content');
    expect(packLabel('extra_storage_slots')).toBe('+50 Voice storage slots');
  });

  it('says bought storage slots last for good and the rest for 3 months', () => {
    expect(packNote('extra_storage_slots')).toContain('for good');
    expect(packNote('extra_model')).toContain('3 months');
  });
});
