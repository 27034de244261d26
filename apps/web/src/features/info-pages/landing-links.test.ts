import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from '../../lib/paths';
import { landingBuyLinks } from './landing-links';

describe('landingBuyLinks', () => {
  it('asks visitors to sign up, then takes them to the chosen plan’s checkout, or back to the packs', () => {
    const links = landingBuyLinks(false);
    expect(links.plan('pro')).toBe('/auth?tab=register&redirect=%2Fonboarding%2Fplans%3Fplan%3Dpro');
    expect(safeRedirectTarget(new URLSearchParams(links.plan('pro').split('?')[1]).get('redirect'))).toBe(
      '/onboarding/plans?plan=pro',
    );
    expect(links.pack).toBe('/auth?tab=register&redirect=%2Fdashboard%2Fplans%23topups');
    const redirect = new URLSearchParams(links.pack.split('?')[1]).get('redirect');
    expect(safeRedirectTarget(redirect)).toBe('/dashboard/plans#topups');
  });

  it('sends signed-in visitors straight to the plans page', () => {
    const links = landingBuyLinks(true);
    expect(links.plan('virtuoso')).toBe('/dashboard/plans');
    expect(links.pack).toBe('/dashboard/plans#topups');
  });
});
