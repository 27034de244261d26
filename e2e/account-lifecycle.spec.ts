// The account's address and password after sign-up, end to end through the run's real SMTP server
// (e2e/mail-sink.ts): a sign-up confirms its address by the mailed link, and the trial waits for
// it; the password and the address change from the account page, with the mail each step sends;
// a notice switched off is not sent, and is again once switched back on.
import type { Browser } from '@playwright/test';
import {
  accessibilityFindings,
  confirmAddress,
  expect,
  expectAccessible,
  inbox,
  linkIn,
  logIn,
  mailTo,
  registerThroughForm,
  registerViaApi,
  runId,
  screenshot,
  test,
} from './support';

/** Signs in from a browser the account has never used (a fresh context: no device cookie). */
async function signInElsewhere(browser: Browser, email: string, password: string): Promise<void> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/auth?tab=login');
  await logIn(page, email, password);
  await expect(page).toHaveURL(/\/(dashboard|onboarding)/);
  await context.close();
}

test('a sign-up confirms its address by the mailed link, and the trial waits for it', async ({ page }) => {
  const account = { username: `conf_${runId}`, email: `conf-${runId}@example.com`, password: 'Passw0rd-e2e' };
  await registerThroughForm(page, account, { confirm: false });
  await expect(page.getByTestId('email-confirm-notice')).toContainText(account.email);
  await expectAccessible(page, 'the onboarding choice with the confirm-your-address notice');

  await page.getByRole('link', { name: 'Pay later' }).click();
  await expect(page.getByTestId('email-not-confirmed')).toContainText('Confirm your address first');
  await expect(page.getByTestId('pay-later-start')).toBeDisabled();
  await screenshot(page, 'pay-later-unconfirmed');

  await confirmAddress(page, account.email);
  await expect(page.getByTestId('verify-email-result')).toContainText('confirmed');
  await screenshot(page, 'address-confirmed');
  await page.goto('/onboarding/pay-later');
  await expect(page.getByTestId('pay-later-start')).toBeEnabled();
  await expect(page.getByTestId('email-confirm-notice')).toHaveCount(0);
});

test('password and address change from the account page, with a mail at each step', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const account = await registerViaApi(page.request, 'life');
  await page.goto('/auth?tab=login&redirect=%2Fdashboard%2Faccount');
  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  await expect(page.getByTestId('email-status')).toHaveText('Not confirmed');
  await screenshot(page, 'account-address-unconfirmed');

  // A new password: the current one first; a mail says it changed.
  await page.getByTestId('password-card').getByRole('button', { name: 'Change password' }).click();
  const passwordForm = page.getByRole('form', { name: 'Change password' });
  await passwordForm.getByLabel('Current password').fill('not-the-password');
  await passwordForm.getByLabel('New password', { exact: true }).fill('N3w-Passw0rd-life');
  await passwordForm.getByLabel('Confirm new password').fill('N3w-Passw0rd-life');
  await passwordForm.getByRole('button', { name: 'Save the new password' }).click();
  await expect(passwordForm.getByRole('alert')).toContainText('not right');
  await passwordForm.getByLabel('Current password').fill(account.password);
  await screenshot(page, 'account-change-password');
  await passwordForm.getByRole('button', { name: 'Save the new password' }).click();
  await expect(page.getByTestId('password-changed')).toBeVisible();
  await mailTo(page.request, account.email, 'Your OwnVoice password was changed');
  const password = 'N3w-Passw0rd-life';

  // A new address: confirmed from there, announced to the old one, then the only one that signs in.
  const newEmail = `life-new-${runId}@example.com`;
  await page.getByTestId('email-card').getByRole('button', { name: 'Change address' }).click();
  const emailForm = page.getByRole('form', { name: 'Change address' });
  await emailForm.getByLabel('New address').fill(newEmail);
  await emailForm.getByLabel('Current password').fill(password);
  await screenshot(page, 'account-change-address');
  expect(await accessibilityFindings(page, 'the change-address dialog', { moderate: true })).toEqual([]);
  await emailForm.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByTestId('email-pending')).toContainText(newEmail);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await screenshot(page, 'account-address-pending');
  const announced = await mailTo(page.request, account.email, 'Your OwnVoice address is about to change');
  expect(announced.text).toContain(newEmail);
  await page.goto(linkIn(await mailTo(page.request, newEmail, 'Confirm your new OwnVoice address'), '/auth/verify'));
  await expect(page.getByTestId('verify-email-result')).toContainText(newEmail);
  await mailTo(page.request, account.email, 'Your OwnVoice address was changed');
  await page.goto('/dashboard/account');
  await expect(page.getByTestId('email-address')).toHaveText(newEmail);
  await expect(page.getByTestId('email-status')).toHaveText('Confirmed');
  await expectAccessible(page, 'the account page with its address, password and notice cards');

  // Notices: a sign-in from a new browser is mailed; switched off, it is not; required ones cannot be.
  await signInElsewhere(browser, newEmail, password);
  await mailTo(page.request, newEmail, 'New sign-in to your OwnVoice account');
  const newSignIn = page.getByRole('switch', { name: 'Sign-in from a new device' });
  await expect(newSignIn).toBeChecked();
  await expect(page.getByRole('switch', { name: /Security changes/ })).toBeDisabled();
  // The switch's input is drawn by Mantine under its track; a person clicks the label.
  const newSignInLabel = page.getByTestId('notices-card').getByText('Sign-in from a new device', { exact: true });
  await newSignInLabel.click();
  await expect(page.getByTestId('notices-status')).toContainText('saved');
  await expect(newSignIn).not.toBeChecked();
  await screenshot(page, 'account-notices');
  const before = (await inbox(page.request, newEmail)).length;
  await signInElsewhere(browser, newEmail, password);
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Sign-in from a new device' })).not.toBeChecked();
  await newSignInLabel.click();
  await expect(page.getByTestId('notices-status')).toContainText('saved');
  await signInElsewhere(browser, newEmail, password);
  // Mail goes out in order: once this sign-in's mail is here, the muted one would be too.
  await expect
    .poll(async () => (await inbox(page.request, newEmail)).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(before + 1);
  const after = await inbox(page.request, newEmail);
  expect(after.slice(before).map((m) => m.subject)).toEqual(['New sign-in to your OwnVoice account']);
});
