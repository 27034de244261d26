// "Forgot password?" as a person does it: from the login tab, through the e-mail the service sent
// to a real SMTP server (e2e/mail-sink.ts), to a new password and a sign-in with it.
import type { APIRequestContext } from '@playwright/test';
import { expect, logIn, registerViaApi, screenshot, test } from './support';

const mailbox = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8080) + 26}/messages`;

/** The reset link of the newest mail to `email`, once it has arrived. */
async function resetLinkFor(request: APIRequestContext, email: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        const messages = (await (await request.get(mailbox)).json()) as { to: string; subject: string; text: string }[];
        const mail = messages.filter((m) => m.to === email && m.subject === 'Reset your OwnVoice password').at(-1);
        link = /https?:\/\/\S+\/auth\/reset\?token=[\w-]+/.exec(mail?.text ?? '')?.[0] ?? '';
        return link;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');
  return link;
}

test('forgot password: a link by e-mail sets a new one, and the old one stops working', async ({ page, request }) => {
  const account = await registerViaApi(request, 'forgot');
  await page.goto('/auth?tab=login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/auth\/forgot$/);
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByRole('button', { name: 'Send me a link' }).click();
  await expect(page.getByTestId('forgot-sent')).toContainText('If an account uses that address');
  await screenshot(page, 'forgot-password-sent');

  const link = await resetLinkFor(request, account.email);
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
