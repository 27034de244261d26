// @vitest-environment happy-dom
// The purchase window (/dashboard/plans) as a person uses it: choosing a plan or a pack, the
// question asked before an upgrade, leaving for the checkout, and what the page says when the
// server or the bank refuses. Only the server is fake.
import type { BillingInfo, ChangePlanResponse, CheckoutResponse, User } from '@ownvoice/shared';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BILLING_MESSAGES } from '../../../lib/billing/billing-messages';
import { PATHS } from '../../../lib/paths';
import { testUser } from '../../../lib/test-user';
import { fakeServer, json, refusal } from '../../../test/fake-server';
import { PAGE_TEST_TIMEOUT, renderWithProviders, resetPage } from '../../../test/render';
import { PlansPage } from './PlansPage';

const CHANGE_PLAN = '/api/stripe/change-plan';
const PACK_CHECKOUT = '/api/stripe/create-checkout-session';
const NEXT_MONTH = new Date(Date.now() + 30 * 86_400_000).toISOString();

const ON_MINIMUM = testUser({
  plan: { name: 'minimum', billingCycle: 'monthly', payNowAvailable: false },
  subscription: { status: 'active', stripeSubscriptionId: 'sub_1', currentPeriodEnd: NEXT_MONTH },
});
const NO_PLAN = testUser();

function serve() {
  const server = fakeServer();
  server.on('GET', '/api/plans/billing', () => json<BillingInfo>({ provider: 'stripe', testMode: false }));
  return server;
}

function open(user: User) {
  return renderWithProviders(<PlansPage />, { user, path: PATHS.plans });
}

const planCard = async (plan: string) => within(await screen.findByTestId(`plan-card-${plan}`));

afterEach(resetPage);

describe('PlansPage', { timeout: PAGE_TEST_TIMEOUT }, () => {
  it('asks before an upgrade, naming the price, then says the new plan has started', async () => {
    const server = serve();
    server.on('POST', CHANGE_PLAN, () =>
      json<ChangePlanResponse>({
        mode: 'subscription',
        id: 'sub_1',
        action: 'upgraded',
        url: null,
        effectiveAt: null,
      }),
    );
    const { person, refresh } = open(ON_MINIMUM);

    await person.click((await planCard('pro')).getByRole('button', { name: 'Upgrade' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Pro monthly?' });
    expect(server.calls('POST', CHANGE_PLAN)).toHaveLength(0);
    await person.click(within(dialog).getByRole('button', { name: /^Upgrade and pay \$/ }));

    expect(await screen.findByText('You are now on Pro (monthly).')).toBeTruthy();
    expect(server.calls('POST', CHANGE_PLAN)[0]?.body).toEqual({ plan: 'pro', billingCycle: 'monthly' });
    expect(refresh).toHaveBeenCalled();
  });

  it('sends nothing when the upgrade question is cancelled', async () => {
    const server = serve();
    const { person } = open(ON_MINIMUM);

    await person.click((await planCard('virtuoso')).getByRole('button', { name: 'Upgrade' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Virtuoso monthly?' });
    await person.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog', { name: 'Upgrade to Virtuoso monthly?' })).toBeNull();
    expect(server.calls('POST', CHANGE_PLAN)).toHaveLength(0);
  });

  it('subscribes to the chosen cycle by leaving for the checkout', async () => {
    const server = serve();
    server.on('POST', CHANGE_PLAN, () =>
      json<ChangePlanResponse>({
        mode: 'checkout',
        id: 'cs_1',
        action: 'checkout',
        url: '/offline-checkout/cs_1',
        effectiveAt: null,
      }),
    );
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { person } = open(NO_PLAN);

    await person.click(await screen.findByRole('radio', { name: /^Annual/ }));
    await person.click((await planCard('pro')).getByRole('button', { name: 'Subscribe' }));

    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/offline-checkout/cs_1'));
    expect(server.calls('POST', CHANGE_PLAN)[0]?.body).toEqual({ plan: 'pro', billingCycle: 'annual' });
  });

  it("says the bank's reason, with the way to pay, when a subscription is declined", async () => {
    const server = serve();
    server.on('POST', CHANGE_PLAN, () =>
      refusal(402, {
        msg: 'Your card was declined. Try another card.',
        code: 'PAYMENT_DECLINED',
        details: { payUrl: 'https://pay.example/invoice/1' },
      }),
    );
    const { person } = open(NO_PLAN);

    await person.click((await planCard('minimum')).getByRole('button', { name: 'Subscribe' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your card was declined. Try another card.');
    expect(within(alert).getByRole('link', { name: 'Pay now' }).getAttribute('href')).toBe(
      'https://pay.example/invoice/1',
    );
    // The cards can be pressed again.
    expect((await planCard('minimum')).getByRole('button', { name: 'Subscribe' }).hasAttribute('disabled')).toBe(false);
  });

  it('says the checkout failed, in its own words, when the server gives no reason for the person', async () => {
    const server = serve();
    server.on('POST', CHANGE_PLAN, () => refusal(500, { msg: 'Internal error', code: 'INTERNAL_ERROR' }));
    const { person } = open(NO_PLAN);

    await person.click((await planCard('pro')).getByRole('button', { name: 'Subscribe' }));

    expect((await screen.findByRole('alert')).textContent).toContain(BILLING_MESSAGES.planCheckoutFailed);
  });

  it('buys a pack by leaving for its checkout', async () => {
    const server = serve();
    server.on('POST', PACK_CHECKOUT, () => json<CheckoutResponse>({ id: 'cs_2', url: '/offline-checkout/cs_2' }));
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const { person } = open(ON_MINIMUM);

    const pack = within(await screen.findByTestId('pack-card-extra_chunk_edits'));
    await person.click(pack.getByRole('button', { name: 'Buy' }));

    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/offline-checkout/cs_2'));
    expect(server.calls('POST', PACK_CHECKOUT)[0]?.body).toMatchObject({ metadata: { pack: 'extra_chunk_edits' } });
  });

  it('says why a pack checkout was refused, and lets the person try again', async () => {
    const server = serve();
    server.on('POST', PACK_CHECKOUT, () =>
      refusal(502, { msg: 'The payment provider is out of reach.', code: 'PAYMENT_PROVIDER_ERROR' }),
    );
    const { person } = open(ON_MINIMUM);

    const pack = within(await screen.findByTestId('pack-card-extra_model'));
    await person.click(pack.getByRole('button', { name: 'Buy' }));

    expect((await screen.findByRole('alert')).textContent).toContain('Error: The payment provider is out of reach.');
    expect(pack.getByRole('button', { name: 'Buy' }).hasAttribute('disabled')).toBe(false);
  });

  it('asks before finishing the trial, and says when the first payment is refused', async () => {
    const server = serve();
    server.on('POST', '/api/auth/finish-trial', () =>
      refusal(402, { msg: 'Your bank asks you to confirm the payment.', code: 'PAYMENT_REQUIRES_ACTION' }),
    );
    const { person } = open(testUser({ plan: { name: 'trial', trialEndsAt: NEXT_MONTH } }));

    await person.click(await screen.findByRole('button', { name: 'Finish trial now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Start the Minimum plan now?' });
    await person.click(within(dialog).getByRole('button', { name: /^Start and pay/ }));

    expect((await screen.findByRole('alert')).textContent).toContain('Your bank asks you to confirm the payment.');
    expect(server.calls('POST', '/api/auth/finish-trial')).toHaveLength(1);
  });

  it('finishes the tutorial at once for someone who pays, and says everything is unlocked', async () => {
    serve();
    const { person, advanceOnboarding } = open({ ...ON_MINIMUM, onboarding: { step: 'create_quickstart_complete' } });

    await person.click(await screen.findByRole('button', { name: 'Finish tutorial' }));

    expect(await screen.findByText('Everything is unlocked. Enjoy writing in your Voice!')).toBeTruthy();
    expect(advanceOnboarding).toHaveBeenCalledWith('tutorial_complete');
  });
});
