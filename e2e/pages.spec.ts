// Routes, guards and the less travelled auth paths (second factor, full beta), with screenshots
// of every public page for review.
import { E2E_ADMIN, enableTwoFactorOnAccountPage, expect, logIn, registerViaApi, screenshot, test } from './support';

test('public pages render with their key content', async ({ page }) => {
  // Served under the strict policy (the fixture in support.ts fails any test it blocks something in).
  const landing = await page.goto('/');
  expect(landing?.headers()['content-security-policy']).toContain("script-src 'self';");
  expect(landing?.headers()['x-frame-options']).toBe('DENY');
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute(
    'href',
    '/auth?tab=register&redirect=%2Fonboarding%2Fplans',
  );
  await expect(page.getByRole('link', { name: 'Login', exact: true }).last()).toHaveAttribute(
    'href',
    '/auth?tab=login&redirect=%2Fonboarding%2Fplans',
  );
  await screenshot(page, 'landing');

  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await screenshot(page, 'about');

  await page.goto('/how-to');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await screenshot(page, 'how-to');

  await page.goto('/privacy');
  await expect(page.getByText('Effective 1 August 2025')).toBeVisible();
  await screenshot(page, 'privacy');

  await page.goto('/download');
  await expect(page.getByText('Version 0.1.0').first()).toBeVisible();
  await expect(page.getByText('Windows x64')).toBeVisible();
  await screenshot(page, 'download');

  await page.goto('/waitlist');
  await expect(page.getByRole('heading', { name: 'The beta is full' })).toBeVisible();
  await screenshot(page, 'waitlist');

  await page.goto('/onboarding/choice');
  await expect(page.getByRole('link', { name: 'Pay later' })).toHaveAttribute('href', /\/auth\?tab=register/);

  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'This page does not exist' })).toBeVisible();
  for (const name of ['Go Home', 'Go to Dashboard']) await expect(page.getByRole('link', { name })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
  await screenshot(page, 'not-found');

  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, 'landing-375');
  await page.goto('/auth?tab=register');
  await screenshot(page, 'auth-375');
});

test('/login and /register open the matching tab', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveURL(/\/auth\?tab=login$/);
  await expect(page.getByRole('tab', { name: 'Login' })).toHaveAttribute('aria-selected', 'true');
  await page.goto('/register');
  await expect(page).toHaveURL(/\/auth\?tab=register$/);
  await expect(page.getByRole('tab', { name: 'Create account' })).toHaveAttribute('aria-selected', 'true');
});

test('a signed-in page asks for login and returns there afterwards', async ({ page }) => {
  const account = await registerViaApi(page.request, 'guard');
  await page.goto('/dashboard/account?from=e2e');
  await expect(page).toHaveURL(/\/auth\?tab=login&redirect=%2Fdashboard%2Faccount%3Ffrom%3De2e$/);

  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('E-mail').fill(account.email.toUpperCase());
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByRole('button', { name: 'Log in' }).click();

  await expect(page).toHaveURL(/\/dashboard\/account\?from=e2e$/);
  const info = page.getByTestId('account-info');
  await expect(info).toContainText(account.username);
  await expect(page.getByTestId('email-address')).toHaveText(account.email);
  await expect(info).toContainText('User');
  await screenshot(page, 'account');

  // Still onboarding: Convert is open, while admin pages (not an admin: the dashboard) and the
  // plans page lead back to the choice screen; a checkout's return page shows how it went.
  await page.goto('/dashboard/convert');
  await expect(page).toHaveURL(/\/dashboard\/convert$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/onboarding\/choice$/);
  await page.goto('/dashboard/plans');
  await expect(page).toHaveURL(/\/onboarding\/choice$/);
  await page.goto('/dashboard/plans/cancel');
  await expect(page.getByText('Your payment was cancelled. No charges were made to your account.')).toBeVisible();
});

test('the second factor step filters the code and words a wrong code', async ({ page }) => {
  let attempts = 0;
  await page.route('**/api/auth/login', async (route) => {
    attempts += 1;
    const body = route.request().postDataJSON() as { mfaToken?: string };
    if (!body.mfaToken) return route.fulfill({ json: { requiresMFA: true } });
    return route.fulfill({ status: 401, json: { msg: 'Invalid MFA token', code: 'INVALID_MFA_TOKEN' } });
  });
  await page.goto('/auth?tab=login');
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('E-mail').fill('mfa@example.com');
  await form.getByLabel('Password', { exact: true }).fill('Passw0rd-e2e');
  await form.getByRole('button', { name: 'Log in' }).click();

  const codeForm = page.getByRole('form', { name: 'Two-factor code' });
  const code = codeForm.getByLabel('Authentication code');
  const submit = codeForm.getByRole('button', { name: 'Verify and log in' });
  await code.fill('12-3 4');
  await expect(code).toHaveValue('1234');
  await expect(submit).toBeDisabled();
  await code.fill('ab12cd34ef');
  await expect(code).toHaveValue('ab12cd34');
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByTestId('form-error')).toHaveText(
    'Invalid authenticator code. Please try again or use a backup code.',
  );
  await screenshot(page, 'auth-mfa-step');
  expect(attempts).toBe(2);

  await codeForm.getByRole('button', { name: 'Back to login' }).click();
  await expect(page.getByRole('form', { name: 'Login' })).toBeVisible();
});

test('a full beta sends sign-ups to the waitlist but lets members log in', async ({ page }) => {
  await page.route('**/api/public/stats', (route) => route.fulfill({ json: { userCount: 500, cap: 500 } }));
  await page.goto('/auth?tab=register');
  await expect(page).toHaveURL(/\/waitlist$/);
  await page.getByRole('link', { name: 'I already have an account' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=login/);
  await expect(page.getByRole('form', { name: 'Login' })).toBeVisible();
});

test('an admin is asked for two-factor, turns it on, then sees the console', async ({ page }) => {
  // The e2e server starts with this super admin, made by `npm run admin -- create-super-admin`.
  const account = E2E_ADMIN;
  await page.goto('/auth?tab=login&redirect=%2Fadmin');
  await logIn(page, account.email, account.password);

  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('navbar-user')).toContainText('Super Admin');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Admin' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByText('Buy More Usage')).toBeVisible();
  // Without two-factor the server refuses the console (403 MFA_REQUIRED) and the page says why.
  const warning = page.getByTestId('admin-mfa-warning');
  await expect(warning).toContainText('MFA is REQUIRED for admin accounts');
  await expect(warning).toContainText('you must enable MFA before you can access admin functions');
  await screenshot(page, 'admin-mfa-required');
  // The longest navbar (admin links and badge) still fits at the narrowest desktop width.
  await page.setViewportSize({ width: 1200, height: 800 });
  await expect(page.getByRole('button', { name: 'Logout' })).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 720 });

  await warning.getByRole('link', { name: 'Set up two-factor on your account page' }).click();
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  await expect(page.getByTestId('admin-mfa-warning')).toBeVisible();
  const { codesDialog } = await enableTwoFactorOnAccountPage(page);
  await codesDialog.getByRole('button', { name: 'I have saved them' }).click();
  await expect(page.getByTestId('admin-mfa-warning')).toHaveCount(0);

  await nav.getByRole('link', { name: 'Admin' }).click();
  const overview = page.getByTestId('admin-overview');
  await expect(overview).toContainText('With two-factor');
  await expect(overview).toContainText('Users');
  await screenshot(page, 'admin');
  await page.getByRole('tab', { name: 'User Management' }).click();
  await page.getByRole('textbox', { name: 'Search users' }).fill('admin@e2e');
  const users = page.getByTestId('admin-users');
  await expect(users).toContainText(account.username);
  await expect(users.locator('tbody tr')).toHaveCount(1);
  await screenshot(page, 'admin-users');

  await page.goto('/onboarding/choice');
  await expect(page.getByRole('link', { name: 'Bypass onboarding' })).toHaveAttribute(
    'href',
    '/dashboard/create?onboard=bypass',
  );
  await page.goto('/admin/users/abc123/activity');
  await expect(page.getByRole('heading', { name: 'User activity' })).toBeVisible();
});
