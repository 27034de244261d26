import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from '../../lib/paths';
import { landingBuyLinks } from './landing-links';

describe('landingBuyLinks', () => {
  it('asks visitors to sign up, then returns them to the plans or the packs', () => {
    const links = landingBuyLinks(false);
    expect(links.plan).toBe('/auth?tab=register&redirect=%2Fdashboard%2Fplans');
    expect(links.pack).toBe('/auth?tab=register&redirect=%2Fdashboard%2Fplans%23topups');
    const redirect = new URLSearchParams(links.pack.split('?')[1]).get('redirect');
    expect(safeRedirectTarget(redirect)).toBe('/dashboard/plans#topups');
  });

  it('sends signed-in visitors straight to the plans page', () => {
    expect(landingBuyLinks(true)).toEqual({ plan: '/dashboard/plans', pack: '/dashboard/plans#topups' });
  });
});
