// Two-factor from the account page, end to end: set it up by reading the key off the page and
// computing the code with Debian's oathtool (an implementation independent of the server's), save
// the backup codes, log out, log in with a code, log in with a backup code, and turn it off; then
// delete the account. Screenshots of the setup dialog and the account page go to e2e/artifacts/.
import type { Page } from '@playwright/test';
import {
  confirmAddress,
  enableTwoFactorOnAccountPage,
  expect,
  logIn,
  registerViaApi,
  screenshot,
  test,
  totp,
} from './support';

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
}

async function logInWithCode(page: Page, account: { email: string; password: string }, code: string) {
  await page.goto('/auth?tab=login&redirect=%2Fdashboard%2Faccount');
  await logIn(page, account.email, account.password);
  const codeForm = page.getByRole('form', { name: 'Two-factor code' });
  await codeForm.getByLabel('Authentication code').fill(code);
  await codeForm.getByRole('button', { name: 'Verify and log in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/account$/);
}

test('two-factor: set up on the account page, log in with a code and a backup code, turn off, delete the account', async ({
  page,
}) => {
  const account = await registerViaApi(page.request, 'mfa');
  // Two-factor needs a confirmed address.
  await confirmAddress(page, account.email);
  await page.goto('/auth?tab=login&redirect=%2Fdashboard%2Faccount');
  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  await expect(page.getByTestId('account-info')).toContainText(account.username);
  await expect(page.getByTestId('usage-modelsTrained')).toContainText('Trainable Voices');
  await expect(page.getByTestId('mfa-status')).toHaveText('Not enabled');

  // Setup: the QR code and the key, and the shared message for a missing code.
  await page.getByRole('button', { name: 'Set up two-factor' }).click();
  const setup = page.getByTestId('mfa-setup-dialog');
  await expect(setup.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await setup.getByTestId('mfa-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await setup.getByRole('button', { name: 'Verify and turn on' }).click();
  await expect(setup.getByTestId('form-error')).toHaveText('Please enter the 6-digit code from your authenticator app');
  await setup.getByTestId('mfa-setup-code').fill(totp(secret));
  await screenshot(page, 'account-mfa-setup');
  await setup.getByRole('button', { name: 'Verify and turn on' }).click();

  // The backup codes, once.
  const codesDialog = page.getByRole('dialog', { name: 'Save your backup codes' });
  await expect(codesDialog).toBeVisible();
  const backupCodes = (await codesDialog.getByTestId('backup-codes').locator('p').allTextContents()).map((c) =>
    c.trim(),
  );
  expect(backupCodes).toHaveLength(10);
  const download = page.waitForEvent('download');
  await codesDialog.getByRole('button', { name: 'Download .txt' }).click();
  expect((await download).suggestedFilename()).toBe('ownvoice-backup-codes.txt');
  await screenshot(page, 'account-backup-codes');
  await codesDialog.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByTestId('mfa-status')).toHaveText('Enabled');
  await screenshot(page, 'account');

  // Log in with a code: the next time step's, since the one just used is spent.
  await logOut(page);
  await logInWithCode(page, account, totp(secret, 30));

  // Log in with a backup code, typed without its dash.
  await logOut(page);
  await logInWithCode(page, account, (backupCodes[0] ?? '').replace('-', ''));

  // The same backup code does not work twice.
  await logOut(page);
  await page.goto('/auth?tab=login&redirect=%2Fdashboard%2Faccount');
  await logIn(page, account.email, account.password);
  const codeForm = page.getByRole('form', { name: 'Two-factor code' });
  await codeForm.getByLabel('Authentication code').fill((backupCodes[0] ?? '').replace('-', ''));
  await codeForm.getByRole('button', { name: 'Verify and log in' }).click();
  await expect(page.getByTestId('form-error')).toHaveText(
    'Invalid authenticator code. Please try again or use a backup code.',
  );
  await codeForm.getByLabel('Authentication code').fill((backupCodes[1] ?? '').replace('-', ''));
  await codeForm.getByRole('button', { name: 'Verify and log in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/account$/);

  // Turn it off with another backup code.
  await page.getByRole('button', { name: 'Turn off two-factor' }).click();
  const disable = page.getByTestId('mfa-disable-dialog');
  await disable.getByTestId('mfa-disable-code').fill((backupCodes[2] ?? '').replace('-', ''));
  await disable.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByTestId('mfa-status')).toHaveText('Not enabled');

  // Delete the account: a wrong password keeps it, the right one ends it for good.
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByTestId('delete-account-dialog');
  await dialog.getByLabel('Your password').fill('Wrong-Passw0rd');
  await dialog.getByRole('button', { name: 'Delete my account for good' }).click();
  await expect(dialog.getByTestId('form-error')).toContainText('password is not right');
  await dialog.getByLabel('Your password').fill(account.password);
  await dialog.getByRole('button', { name: 'Delete my account for good' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/auth?tab=login');
  await logIn(page, account.email, account.password);
  await expect(page.getByTestId('form-error')).toHaveText('Invalid email or password. Please try again.');
});

test('wrong codes in the second step lock out a browser the account does not know', async ({ page }) => {
  const account = await registerViaApi(page.request, 'lock');
  await confirmAddress(page, account.email);
  await page.goto('/auth?tab=login&redirect=%2Fdashboard%2Faccount');
  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  const { codesDialog } = await enableTwoFactorOnAccountPage(page);
  await codesDialog.getByRole('button', { name: 'I have saved them' }).click();
  await logOut(page);
  // A browser that never signed in to the account (the owner's own is slowed down, never locked).
  await page.context().clearCookies();

  await page.goto('/auth?tab=login');
  await logIn(page, account.email, account.password);
  const codeForm = page.getByRole('form', { name: 'Two-factor code' });
  const error = page.getByTestId('form-error');
  for (let attempt = 1; attempt <= 4; attempt++) {
    await codeForm.getByLabel('Authentication code').fill(`00000${attempt}`);
    await codeForm.getByRole('button', { name: 'Verify and log in' }).click();
    await expect(error).toHaveText('Invalid authenticator code. Please try again or use a backup code.');
    await codeForm.getByLabel('Authentication code').fill('');
  }
  await codeForm.getByLabel('Authentication code').fill('000005');
  await codeForm.getByRole('button', { name: 'Verify and log in' }).click();
  await expect(error).toContainText('locked after multiple failed login attempts');
  await screenshot(page, 'auth-mfa-locked');
});
