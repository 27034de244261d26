// Every public route of the web app through axe (WCAG 2.1 A and AA): no moderate, serious or
// critical finding, best practices (heading order) included. A paying user's pages are held to the
// same in small-screens.spec.ts, at a desktop's width in the sweep that also checks them on a phone;
// the admin console's tabs in admin.spec.ts, where an admin with two-factor is at hand.
import { accessibilityFindings, expect, test } from './support';

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
