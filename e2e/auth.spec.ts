// The account journey through the real UI: sign up, onboarding, the dashboard, log out, log in;
// plus the error messages of the auth screen. Screenshots go to e2e/artifacts/ for review.
import { expect, fillRegistration, logIn, runId, screenshot, test } from './support';

const account = {
  username: `e2e_${runId}`,
  email: `e2e-${runId}@example.com`,
  password: 'Corr3ct-Horse-Battery',
};

test.describe
  .serial('accounts', () => {
    test('sign up, onboard, reach the dashboard, log out and log back in', async ({ page }) => {
      await page.goto('/auth?tab=register');
      await expect(page.getByRole('tab', { name: 'Create account' })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByText('Early beta:')).toBeVisible();
      await screenshot(page, 'auth-page');

      await fillRegistration(page, { ...account, confirmPassword: account.password });
      await expect(page).toHaveURL(/\/onboarding\/choice$/);
      await expect(page.getByRole('heading', { name: 'How would you like to start?' })).toBeVisible();
      await expect(page.getByTestId('onboarding-choice')).toHaveCount(2);
      await expect(page.getByTestId('navbar-user')).toContainText(account.username);
      await screenshot(page, 'onboarding-choice');

      // A new account is still onboarding: the dashboard sends it back to the choice screen.
      await page.goto('/dashboard');
      await expect(page).toHaveURL(/\/onboarding\/choice$/);

      // Loaded fresh: the session comes back from the stored token.
      await page.goto('/dashboard/create');
      await expect(page.getByRole('heading', { name: 'Create a new Voice' })).toBeVisible();
      await screenshot(page, 'create-voice');
      await page.getByRole('button', { name: 'Skip this step' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByRole('heading', { name: 'My Voices' })).toBeVisible();
      await expect(page.getByTestId('voices-empty')).toContainText('Create Your First Voice');
      await expect(page.getByRole('link', { name: 'Public Voices' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Create New Voice' })).toBeVisible();
      await screenshot(page, 'dashboard');

      await page.setViewportSize({ width: 375, height: 812 });
      await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, 'dashboard-375');
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(page.getByTestId('drawer-user')).toContainText(account.username);
      // The drawer slides in; wait until it is fully on screen before taking the picture.
      await expect(page.getByRole('dialog')).toBeInViewport({ ratio: 1 });
      await screenshot(page, 'dashboard-375-menu', { fullPage: false });
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('drawer-user')).toBeHidden();
      await page.setViewportSize({ width: 1280, height: 720 });

      // Logging out also revokes the session on the server (a CSRF-protected POST).
      const revoked = page.waitForResponse((response) => response.url().endsWith('/api/auth/logout'));
      await page.getByRole('button', { name: 'Logout' }).click();
      expect((await revoked).status()).toBe(200);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();
      expect(await page.evaluate(() => localStorage.getItem('ownvoice.token'))).toBeNull();

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).click();
      await expect(page).toHaveURL(/\/auth\?tab=login/);
      await logIn(page, account.email, account.password);
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(page.getByTestId('navbar-user')).toContainText(account.username);
    });

    test('a wrong password is refused with the shared message', async ({ page }) => {
      await page.goto('/auth?tab=login');
      await logIn(page, account.email, 'Wrong-Passw0rd');
      await expect(page.getByTestId('form-error')).toHaveText('Invalid email or password. Please try again.');
      await expect(page).toHaveURL(/\/auth\?tab=login/);
    });

    test('registration rules show in the red box', async ({ page }) => {
      await page.goto('/auth?tab=register');
      const error = page.getByTestId('form-error');
      const username = page.getByRole('form', { name: 'Create account' }).getByLabel('Username');

      await fillRegistration(page, {
        username: 'ab',
        email: 'rules@example.com',
        password: 'Passw0rd',
        confirmPassword: 'Passw0rd',
      });
      await expect(error).toHaveText('Username must be 3-30 characters long');

      // Characters outside the allowed set never reach the box.
      await username.fill('bad name!');
      await expect(username).toHaveValue('badname');

      await fillRegistration(page, {
        username: `r_${runId}`,
        email: 'rules@example.com',
        password: 'short1A',
        confirmPassword: 'short1A',
      });
      await expect(error).toHaveText('Password must be 8-128 characters long');

      await fillRegistration(page, {
        username: `r_${runId}`,
        email: 'rules@example.com',
        password: 'alllowercase1',
        confirmPassword: 'alllowercase1',
      });
      await expect(error).toHaveText(
        'Password must contain at least one uppercase letter, one lowercase letter, and one number',
      );

      await fillRegistration(page, {
        username: `r_${runId}`,
        email: 'rules@example.com',
        password: 'Passw0rd-ok',
        confirmPassword: 'Passw0rd-no',
      });
      await expect(error).toHaveText('Passwords do not match');

      // The server's answer shows in the same box: this username exists already.
      await fillRegistration(page, {
        username: account.username,
        email: `other-${runId}@example.com`,
        password: 'Passw0rd-ok',
        confirmPassword: 'Passw0rd-ok',
      });
      await expect(error).toBeVisible();
      await expect(error).not.toHaveText('Registration failed');
      await expect(page).toHaveURL(/\/auth/);
    });
  });
