// Paying, on the embedded default's offline provider (a test checkout, no card): the pay-later
// trial to the Minimum plan, a pack from the plans page, cancelling and reactivating, an upgrade
// charged at once and a downgrade shown as the pending change. Screenshots go to e2e/artifacts/.
import type { Page } from '@playwright/test';
import {
  completeTestCheckout,
  expect,
  expectPaymentConfirmed,
  fillRegistration,
  logIn,
  mailTo,
  registerThroughForm,
  runId,
  screenshot,
  test,
} from './support';

const payer = { username: `payer_${runId}`, email: `payer-${runId}@example.com`, password: 'Corr3ct-Horse-Battery' };

test.describe
  .serial('Billing', () => {
    test('pay later: a card saved at the test checkout starts the trial; finishing it starts the Minimum plan', async ({
      page,
    }) => {
      await registerThroughForm(page, payer);
      await screenshot(page, 'onboarding-choice');
      // Making the choice is the onboarding step `choice`, recorded before the next page.
      const choiceMade = page.waitForRequest(
        (request) => request.url().endsWith('/api/auth/onboarding') && request.postDataJSON()?.step === 'choice',
      );
      await page.getByRole('link', { name: 'Pay later' }).click();
      await choiceMade;
      await expect(page).toHaveURL(/\/onboarding\/pay-later$/);
      // One statement of what is charged when, on every page that mentions it.
      const statement =
        "The first charge is $10.00: the Minimum plan's first month ($8.99) and $1.01 for the trial day.";
      await expect(page.getByTestId('first-charge')).toContainText('Nothing is charged today.');
      await expect(page.getByTestId('first-charge')).toContainText(statement);
      await screenshot(page, 'pay-later');
      await page.getByTestId('pay-later-start').click();
      await expect(page.getByTestId('offline-checkout-amount')).toHaveText('Nothing today');
      await expect(page.getByTestId('offline-checkout')).toContainText(statement);
      // Saving a card is not a payment: the button and the page after it say so.
      await expect(page.getByRole('button', { name: 'Pay' })).toHaveCount(0);
      await completeTestCheckout(page, 'Start trial', 'offline-checkout-trial');
      await expectPaymentConfirmed(page);
      await expect(page.getByRole('heading', { name: 'Your trial has started' })).toBeVisible();
      await expect(page.getByTestId('payment-success-text')).toContainText('nothing was charged today');
      await expect(page.getByTestId('payment-success-text')).toContainText(statement);
      await expect(page.getByText('Payment successful')).toHaveCount(0);
      await screenshot(page, 'pay-later-success');
      // The trial is a day: the mail that it ends tomorrow comes as it starts, with the amount.
      const trialMail = await mailTo(page.request, payer.email, 'Your OwnVoice trial ends tomorrow');
      expect(trialMail.text).toContain('charged $10.00');

      // On the trial: the plans page says when the Minimum plan starts, and can start it now.
      await page.goto('/dashboard/plans');
      await expect(page.getByTestId('trial-panel')).toBeVisible();
      await expect(page.getByTestId('trial-panel')).toContainText(statement);
      await screenshot(page, 'plans-trial');
      await page.getByTestId('finish-trial').click();
      // It charges the saved card now: the page asks first, saying what and how much.
      const ask = page.getByRole('dialog', { name: 'Start the Minimum plan now?' });
      await expect(ask).toContainText('The first charge is $10.00');
      await expect(ask).toContainText('Then $8.99 a month');
      await page.waitForTimeout(300); // the modal's fade-in, for the picture
      await screenshot(page, 'plans-confirm-finish-trial', { fullPage: false });
      await ask.getByRole('button', { name: 'Start and pay $10.00' }).click();
      await expect(page.getByText('$10.00 was charged to your card')).toBeVisible();
      expect((await mailTo(page.request, payer.email, 'Receipt: $10.00 to OwnVoice')).text).toContain(
        '/dashboard/account',
      );
      await expect(page.getByTestId('trial-panel')).toHaveCount(0);
      await expect(page.getByTestId('plan-button-minimum')).toHaveText('Current plan');
      await expect(page.getByTestId('plan-button-minimum')).toBeDisabled();
      await expect(page.getByTestId('plan-button-pro')).toHaveText('Upgrade');
    });

    test('buy a pack from the plans page and see it in the usage limits', async ({ page }) => {
      await logInAs(page);
      await page.goto('/dashboard/plans#topups');
      await expect(page.getByTestId('topups')).toBeInViewport();
      await screenshot(page, 'plans');
      await page.getByTestId('pack-buy-extra_chunk_edits').click();
      await expect(page.getByTestId('offline-checkout-amount')).toHaveText('$4.99');
      await completeTestCheckout(page);
      await expectPaymentConfirmed(page);
      await page.goto('/dashboard/account');
      // 20 from the trial, 200 from the Minimum plan's month, 100 from the pack.
      await expect(page.getByTestId('usage-chunkEdits')).toContainText('320');
    });

    test('a returning subscriber’s Login on the landing page leads to their dashboard', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('main').getByRole('link', { name: 'Login', exact: true }).click();
      await expect(page).toHaveURL(/tab=login&redirect=%2Fonboarding%2Fplans/);
      await logIn(page, payer.email, payer.password);
      // Not the "Pay now and save 15%" page: there is no first plan left to choose.
      await expect(page).toHaveURL(/\/dashboard$/);
    });

    test('cancel the subscription, then reactivate it', async ({ page }) => {
      await logInAs(page);
      await page.goto('/dashboard/account');
      await page.getByTestId('cancel-subscription').click();
      await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel Subscription' }).click();
      await expect(page.getByTestId('reactivate-subscription')).toBeVisible();
      await expect(page.getByTestId('subscription-status')).toHaveText('Canceled');
      await expect(page.getByTestId('subscription-period-end')).toBeVisible();
      await screenshot(page, 'account-cancelled');
      await mailTo(page.request, payer.email, 'Your OwnVoice plan is cancelled');
      await page.getByTestId('reactivate-subscription').click();
      await expect(page.getByTestId('cancel-subscription')).toBeVisible();
      await expect(page.getByTestId('subscription-status')).toContainText('Active');
    });

    test('upgrade now, then a downgrade waits for the next period as the pending change', async ({ page }) => {
      await logInAs(page);
      await page.goto('/dashboard/plans');
      await page.getByTestId('plan-button-pro').click();
      // An upgrade charges the new plan's full price at once, so the page asks first, with the amount.
      const confirm = page.getByTestId('confirm-dialog');
      await expect(confirm).toContainText('$36.99');
      await screenshot(page, 'plans-confirm-upgrade');
      await confirm.getByRole('button', { name: /Upgrade and pay/ }).click();
      await expect(page.getByTestId('plan-button-pro')).toHaveText('Current plan');
      await expect(page.getByTestId('plan-button-minimum')).toHaveText('Downgrade');

      await page.getByTestId('plan-button-minimum').click();
      await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Downgrade' }).click();
      await expect(page.getByTestId('pending-change')).toContainText('Minimum');
      await expect(page.getByTestId('plan-button-pro')).toHaveText('Current plan');
      await screenshot(page, 'plans-pending-downgrade');
      await page.goto('/dashboard/account');
      await expect(page.getByTestId('subscription-pending-change')).toContainText('Minimum');
      await expect(page.getByTestId('subscription-plan')).toContainText('Pro');
      await screenshot(page, 'account-subscription');
    });
  });

async function logInAs(page: Page) {
  await page.goto('/auth?tab=login');
  await logIn(page, payer.email, payer.password);
  await expect(page).toHaveURL(/\/dashboard/);
}

test('a card declined when the plan starts says the bank’s reason and offers the payment page', async ({ page }) => {
  const decliner = {
    username: `declined_${runId}`,
    email: `declined-${runId}@example.com`,
    password: 'Corr3ct-Horse-Battery',
  };
  await registerThroughForm(page, decliner);
  await page.getByRole('link', { name: 'Pay later' }).click();
  await page.getByTestId('pay-later-start').click();
  // Stripe's test card that saves, then declines when charged.
  await completeTestCheckout(page, 'Start trial', undefined, '4000000000000341');
  await expectPaymentConfirmed(page);
  await page.goto('/dashboard/plans');
  await page.getByTestId('finish-trial').click();
  await page
    .getByRole('dialog', { name: 'Start the Minimum plan now?' })
    .getByRole('button', { name: 'Start and pay $10.00' })
    .click();
  const problem = page.getByTestId('form-error');
  await expect(problem).toContainText('Your card was declined.');
  await expect(problem).not.toContainText('Please try again');
  await expect(problem.getByTestId('pay-link')).toBeVisible();
  await screenshot(page, 'plans-card-declined');
  // Always sent, with the link to pay another way.
  const declined = await mailTo(page.request, decliner.email, 'Your OwnVoice payment did not go through');
  expect(declined.text).toContain('Fix the payment: http');
});

test('a plan chosen on the landing page carries through sign-up to its checkout', async ({ page }) => {
  await page.goto('/#plans');
  await page.getByTestId('landing-plans').getByTestId('plan-button-pro').click();
  await expect(page).toHaveURL(/tab=register/);
  await fillRegistration(page, {
    username: `chooser_${runId}`,
    email: `chooser-${runId}@example.com`,
    password: 'Corr3ct-Horse-Battery',
  });
  // Straight on to the Pro plan's checkout, at the pay-now price a first plan gets.
  await expect(page.getByTestId('offline-checkout')).toContainText('Pro plan, billed monthly');
  await screenshot(page, 'landing-plan-checkout');
  await completeTestCheckout(page);
  await expectPaymentConfirmed(page);
  await page.goto('/dashboard/account');
  await expect(page.getByTestId('subscription-status')).toContainText('Active');
  await expect(page.getByTestId('subscription-plan')).toHaveText(/Pro/);
});
