// "Forgot password?" as a person does it: from the login tab, through the e-mail the service sent
// to a real SMTP server (e2e/mail-sink.ts), to a new password and a sign-in with it.
import { expect, linkIn, logIn, mailTo, registerViaApi, screenshot, test } from './support';

test('forgot password: a link by e-mail sets a new one, and the old one stops working', async ({ page, request }) => {
  const account = await registerViaApi(request, 'forgot');
  await page.goto('/auth?tab=login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/auth\/forgot$/);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByTestId('forgot-sent')).toContainText('If an account uses that address');
  await screenshot(page, 'forgot-password-sent');

  const link = linkIn(await mailTo(request, account.email, 'Reset your OwnVoice password'), '/auth/reset');
  await page.goto(link);
  const form = page.getByRole('form', { name: 'New password' });
  await form.getByLabel('New password', { exact: true }).fill('N3w-Passw0rd-e2e');
  await form.getByLabel('New password again').fill('N3w-Passw0rd-e2e');
  await screenshot(page, 'reset-password');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByTestId('reset-done')).toContainText('Your password is changed');

  await page.getByRole('link', { name: 'Log in' }).click();
  await logIn(page, account.email, account.password);
  await expect(page.getByText('Invalid email or password. Please try again.')).toBeVisible();
  await page.goto('/auth?tab=login');
  await logIn(page, account.email, 'N3w-Passw0rd-e2e');
  await expect(page).toHaveURL(/\/(dashboard|onboarding)/);

  // The link works once.
  await page.goto(link);
  await form.getByLabel('New password', { exact: true }).fill('An0ther-Passw0rd');
  await form.getByLabel('New password again').fill('An0ther-Passw0rd');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByRole('alert')).toContainText('This link does not work any more');
});
