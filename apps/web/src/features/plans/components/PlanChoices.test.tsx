// @vitest-environment happy-dom
// The upgrade question by keyboard: it opens on Cancel, never on "Upgrade and pay", and closing it
// (Escape or Cancel) gives focus back to the plan's Upgrade button.
import type { BillingInfo } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PATHS } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { fakeServer, json } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { PlansPage } from './PlansPage';

const ON_MINIMUM = testUser({
  plan: { name: 'minimum', billingCycle: 'monthly', payNowAvailable: false },
  subscription: {
    status: 'active',
    stripeSubscriptionId: 'sub_1',
    currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  },
});

afterEach(resetPage);

const focusOn = (element: HTMLElement) => vi.waitFor(() => expect(document.activeElement).toBe(element));

describe('Upgrade question', { timeout: PAGE_TEST_TIMEOUT }, () => {
  for (const how of ['Escape', 'Cancel'] as const) {
    it(`opens on Cancel and gives focus back to Upgrade after ${how}`, async () => {
      const server = fakeServer();
      server.on('GET', '/api/plans/billing', () => json<BillingInfo>({ provider: 'stripe', testMode: false }));
      const { person } = renderWithProviders(<PlansPage />, { user: ON_MINIMUM, path: PATHS.plans });
      const upgrade = within(await screen.findByTestId('plan-card-pro')).getByRole('button', { name: 'Upgrade' });

      upgrade.focus();
      await person.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Pro monthly?' });
      await focusOn(within(dialog).getByRole('button', { name: 'Cancel' }));
      expect(within(dialog).getByRole('button', { name: /^Upgrade and pay/ })).not.toBe(document.activeElement);
      await person.keyboard(how === 'Escape' ? '{Escape}' : '{Enter}');

      await focusOn(upgrade);
      expect(server.calls('POST', '/api/stripe/change-plan')).toHaveLength(0);
    });
  }
});
