// @vitest-environment happy-dom
// The pages a checkout returns to: success says what was bought and for how much (for the checkout
// this tab started, named by the provider's session id); a cancelled checkout goes back to the form
// it was started from and says nothing was charged.
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { saveCheckoutOrigin } from '../../../lib/billing/checkout-origin';
import { savePurchase } from '../../../lib/billing/checkout-purchase';
import { PATHS } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { PaymentCancelledPage } from './PaymentCancelledPage';
import { PaymentSuccessPage } from './PaymentSuccessPage';

afterEach(() => {
  resetPage();
  sessionStorage.clear();
});

const user = testUser({
  plan: { name: 'minimum', billingCycle: 'monthly' },
  onboarding: { step: 'tutorial_complete' },
});

function open(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path={PATHS.plansSuccess} element={<PaymentSuccessPage />} />
      <Route path={PATHS.plansCancel} element={<PaymentCancelledPage />} />
      <Route path={PATHS.plans} element={<p>The plans form</p>} />
    </Routes>,
    { user, path },
  );
}

describe('the payment success page', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('says what was bought and for how much', async () => {
    savePurchase({ checkoutId: 'cs_1', purchase: { kind: 'packs', packs: ['extra_chunk_edits'] } });
    open(`${PATHS.plansSuccess}?session_id=cs_1`);
    const summary = await screen.findByTestId('payment-purchase');
    expect(summary.textContent).toContain('You bought');
    expect(screen.getByTestId('payment-purchase-item').textContent).toBe('+100 Proofreads');
    expect(screen.getByTestId('payment-purchase-amount').textContent).toBe('$4.99');
  });

  it('names a plan with its price and discount', async () => {
    savePurchase({
      checkoutId: 'cs_2',
      purchase: { kind: 'plan', plan: 'minimum', billingCycle: 'monthly', payNow: true },
    });
    open(`${PATHS.plansSuccess}?session_id=cs_2&source=pay_now`);
    expect((await screen.findByTestId('payment-purchase-item')).textContent).toBe('Minimum plan, billed monthly');
    expect(screen.getByTestId('payment-purchase-amount').textContent).toBe('$7.64 a month · 15% off for life');
  });

  it('says nothing of a purchase another checkout made', async () => {
    savePurchase({ checkoutId: 'cs_1', purchase: { kind: 'packs', packs: ['extra_model'] } });
    open(`${PATHS.plansSuccess}?session_id=cs_other`);
    expect(await screen.findByTestId('payment-success')).toBeTruthy();
    expect(screen.queryByTestId('payment-purchase')).toBeNull();
  });
});

describe('the payment cancelled page', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('goes back to the form the checkout came from, saying nothing was charged', async () => {
    saveCheckoutOrigin(`${PATHS.plans}#topups`);
    open(PATHS.plansCancel);
    expect(await screen.findByText('The plans form')).toBeTruthy();
    expect(await screen.findByText('Your payment was cancelled. No charges were made to your account.')).toBeTruthy();
    expect(screen.queryByTestId('payment-cancelled')).toBeNull();
  });

  it('stays and says so when it does not know where the checkout came from', async () => {
    open(PATHS.plansCancel);
    expect((await screen.findByTestId('payment-cancelled')).textContent).toContain('No charges were made');
  });
});
