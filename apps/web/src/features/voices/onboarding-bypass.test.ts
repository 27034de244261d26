import type { OnboardingStep, Role } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { ONBOARDING_BYPASS_PATH } from '../../lib/paths';
import { asksForBypass, bypassAction, withoutBypass } from './onboarding-bypass';

const who = (role: Role, step: OnboardingStep) => ({ role, onboarding: { step } });
const bypassQuery = `?${ONBOARDING_BYPASS_PATH.split('?')[1]}`;

describe('the admin bypass link', () => {
  it('is the query of the choice screen’s admin button', () => {
    expect(ONBOARDING_BYPASS_PATH).toBe('/dashboard/create?onboard=bypass');
    expect(asksForBypass(bypassQuery)).toBe(true);
    expect(asksForBypass('?onboard=other')).toBe(false);
    expect(asksForBypass('')).toBe(false);
  });

  it('finishes onboarding for an admin still onboarding, and only drops the query otherwise', () => {
    expect(bypassAction(bypassQuery, who('admin', 'registered'))).toBe('finish');
    expect(bypassAction(bypassQuery, who('super_admin', 'choice'))).toBe('finish');
    expect(bypassAction(bypassQuery, who('super_admin', 'tutorial_complete'))).toBe('drop');
    expect(bypassAction(bypassQuery, who('user', 'registered'))).toBe('drop');
    expect(bypassAction('', who('admin', 'registered'))).toBeNull();
  });

  it('drops only the bypass from the query', () => {
    expect(withoutBypass(bypassQuery)).toBe('');
    expect(withoutBypass('?onboard=bypass&tab=2')).toBe('?tab=2');
  });
});
