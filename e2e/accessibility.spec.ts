// Every route of the web app through axe (WCAG 2.1 A and AA), signed out and as a paying user:
// no moderate, serious or critical finding anywhere, best practices (heading order) included. The
// admin console's tabs are checked in admin.spec.ts, where an admin with two-factor is at hand.
import {
  accessibilityFindings,
  expect,
  payNowAtOnboarding,
  registerThroughForm,
  runId,
  screenshot,
  test,
} from './support';

const PUBLIC_ROUTES = [
  '/',
  '/about',
  '/how-to',
  '/privacy',
  '/auth/forgot',
  '/auth/reset?token=not-a-real-token-but-long-enough',
  '/auth/verify?token=not-a-real-token-but-long-enough',
  '/download',
  '/waitlist',
  '/onboarding/choice',
  '/auth?tab=login',
  '/auth?tab=register',
  '/invite/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  '/no/such/page',
  // The API reference, rendered by the server (no web app on it).
  '/api/docs',
];

const SIGNED_IN_ROUTES = [
  '/dashboard',
  '/dashboard/create',
  '/dashboard/convert',
  '/dashboard/create-content',
  '/dashboard/account',
  '/dashboard/plans',
  '/dashboard/plans/cancel',
  '/dashboard/public-loras',
  '/onboarding/plans',
  '/admin',
];

test('every public page passes axe with no moderate or worse finding', async ({ page }) => {
  // Fifteen pages through axe, the API reference among them (a long page).
  test.setTimeout(180_000);
  const findings: string[] = [];
  for (const route of PUBLIC_ROUTES) {
    await page.goto(route);
    await expect(page.locator('main, [role="main"]').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    findings.push(...(await accessibilityFindings(page, route, { moderate: true })));
  }
  expect(findings).toEqual([]);
});

test('every page of a paying user passes axe with no moderate or worse finding', async ({ page }) => {
  test.setTimeout(120_000);
  await registerThroughForm(page, {
    username: `a11y_${runId}`,
    email: `a11y-${runId}@example.com`,
    password: 'Corr3ct-Horse-Battery',
  });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const findings = await accessibilityFindings(page, '/onboarding/choice (signed in)', { moderate: true });
  await payNowAtOnboarding(page, 'minimum');
  findings.push(...(await accessibilityFindings(page, '/dashboard/plans/success', { moderate: true })));
  for (const route of SIGNED_IN_ROUTES) {
    await page.goto(route);
    await expect(page.locator('main, [role="main"]').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    findings.push(...(await accessibilityFindings(page, route, { moderate: true })));
  }
  await screenshot(page, 'a11y-last-page');
  expect(findings).toEqual([]);
});
