// Every signed-in and admin page at a desktop's width (1280 px) and a phone's (390 px): nothing
// wider than the screen and no serious or critical axe finding, and at a desktop's width a signed-in
// page has no moderate one either, best practices included (as accessibility.spec.ts holds the
// public pages; one sweep checks both, where two walked the same pages); and what issue 57 found on the way
// there, each checked as a person meets it: a skip link as the first Tab stop, a visible focus ring
// on the Convert editor, the purchase window's buy button with its price in full, the console's row
// actions in view and in reach of the keyboard, the activity table's scroll box focusable, and the
// API reference no wider than a phone. One user and one admin serve the whole file: the later tests
// sign in as the writer the first one makes, so run the file whole. Not serial: a failure in one
// test leaves the others to run and report theirs.
import type { Locator, Page } from '@playwright/test';
import {
  accessibilityFindings,
  E2E_SCREENS_ADMIN,
  enableTwoFactorOnAccountPage,
  expect,
  logIn,
  payNowAtOnboarding,
  prose,
  registerThroughForm,
  runId,
  screenshot,
  tabTo,
  test,
} from './support';

const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * One id for the run that a worker started again after a failure shares (runId is drawn anew in
 * each worker): the number of the run's data folder, which the runner fixes for all its workers.
 */
const fileRunId = /(\d+)$/.exec(process.env.E2E_DATA_DIR ?? '')?.[1] ?? runId;
const writer = {
  username: `narrow_${fileRunId}`,
  email: `narrow-${fileRunId}@example.com`,
  password: 'Corr3ct-Horse-Battery',
};

/** What the first test made, for the later ones: the Voice's id and the payment's success page. */
const made = { voiceId: '', successPage: '' };

/** What a page may do before it is checked (open a closed section, a menu); `name` goes in the findings. */
interface Visit {
  route: string;
  name?: string;
  prepare?: (page: Page) => Promise<void>;
  /** At a desktop's width, moderate findings too (the signed-in pages; the admin console's are admin.spec.ts's). */
  moderate?: boolean;
}

/** How far the page is wider than the window: 0 when nothing scrolls sideways. */
const sidewaysOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/**
 * Visits each page at each width: axe's serious and critical findings, and any sideways scroll of
 * the whole page, all collected so one run names every page that fails.
 */
async function sweep(page: Page, visits: Visit[]): Promise<string[]> {
  const findings: string[] = [];
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const visit of visits) {
      const what = `${visit.name ?? visit.route} at ${size.width} px`;
      await page.goto(visit.route);
      await expect(page.locator('main').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await visit.prepare?.(page);
      findings.push(
        ...(await accessibilityFindings(page, what, { moderate: visit.moderate && size.name === 'desktop' })),
      );
      const overflow = await sidewaysOverflow(page);
      if (overflow > 0) findings.push(`${what}: the page is ${overflow} px wider than the window`);
    }
  }
  return findings;
}

async function logInAs(page: Page, account: { email: string; password: string }, landing: RegExp) {
  await page.goto('/auth?tab=login');
  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL(landing);
}

/**
 * The focus ring drawn around the editor, wherever it is drawn: the widest outline, and whether a
 * box shadow shows, on the editable element or any box of the editor around it.
 */
const editorRing = (editor: Locator) =>
  editor.evaluate((node) => {
    const root = node.closest('.mantine-RichTextEditor-root');
    let outline = 0;
    const shadows: string[] = [];
    for (let box: Element | null = node; box; box = box === root ? null : box.parentElement) {
      const style = getComputedStyle(box);
      if (style.outlineStyle !== 'none') outline = Math.max(outline, Number.parseFloat(style.outlineWidth));
      shadows.push(style.boxShadow);
    }
    return { outline, shadows: shadows.join(' | ') };
  });

test('every signed-in page passes axe and fits the screen, on a desktop and on a phone', async ({ page }) => {
  test.setTimeout(300_000);
  await registerThroughForm(page, writer);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const before = await accessibilityFindings(page, '/onboarding/choice before a plan', { moderate: true });
  await payNowAtOnboarding(page, 'minimum');
  made.successPage = new URL(page.url()).pathname + new URL(page.url()).search;

  // One Voice, made through the form as a writer makes it; its pages are checked while it trains.
  await page.goto('/dashboard/create');
  await page.getByTestId('create-voice-name').fill('Narrow notes');
  await page.getByTestId('create-voice-text').fill(prose(24_000, 0.4));
  await page.getByTestId('create-voice-submit').click();
  await expect(page).toHaveURL(/\/dashboard\/loras\/[0-9a-f]{24}\/training$/, { timeout: 30_000 });
  made.voiceId = /loras\/([0-9a-f]{24})/.exec(page.url())?.[1] ?? '';

  const signedIn: Visit[] = [
    { route: '/dashboard' },
    {
      route: '/dashboard',
      name: '/dashboard with the menu open',
      prepare: async (p) => {
        const burger = p.getByRole('button', { name: 'Open menu' });
        if (!(await burger.isVisible())) return; // a desktop shows the links in the bar
        await burger.click();
        // The menu's drawer by its name: the dashboard's tour, a dialog too, may be open beside it.
        await expect(p.getByRole('dialog', { name: 'OwnVoice' })).toBeVisible();
      },
    },
    { route: '/dashboard/create' },
    { route: `/dashboard/loras/${made.voiceId}`, name: "a Voice's page" },
    { route: `/dashboard/loras/${made.voiceId}/training`, name: "a Voice's training page" },
    { route: '/dashboard/convert' },
    { route: '/dashboard/create-content' },
    {
      route: '/dashboard/account',
      name: '/dashboard/account with the usage history open',
      prepare: async (p) => {
        await p.getByTestId('usage-history').getByRole('button', { name: 'Show' }).click();
        await expect(p.getByTestId('usage-history-table')).toBeVisible();
      },
    },
    { route: '/dashboard/plans' },
    { route: made.successPage, name: '/dashboard/plans/success' },
    { route: '/dashboard/plans/cancel' },
    { route: '/dashboard/public-loras' },
    { route: '/admin', name: '/admin (not an admin)' },
    { route: '/onboarding/choice' },
    { route: '/onboarding/plans' },
    { route: '/onboarding/pay-later' },
  ];
  const findings = [
    ...before,
    ...(await sweep(
      page,
      signedIn.map((visit) => ({ ...visit, moderate: true })),
    )),
  ];
  await screenshot(page, 'small-screen-onboarding-pay-later');
  expect(findings).toEqual([]);
});

test('the skip link is the first Tab stop and takes the focus past the navigation to the page', async ({ page }) => {
  await logInAs(page, writer, /\/dashboard$/);
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    // The account page: no guide panel there takes the focus on arrival, as Convert's tour does.
    await page.goto('/dashboard/account');
    await expect(page.getByTestId('account-info')).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport({ ratio: 1 });
    await screenshot(page, `skip-link-${size.name}`, { fullPage: false });
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    await expect(page).toHaveURL(/\/dashboard\/account$/);
    // The next Tab lands inside the page, not back in the header.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement))).toBe(true);
  }
});

test('the Convert editor shows a focus ring when the keyboard reaches it', async ({ page }) => {
  await logInAs(page, writer, /\/dashboard$/);
  for (const size of WIDTHS) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto('/dashboard/convert');
    const editor = page.getByTestId('convert-editor');
    await expect(editor).toBeVisible();
    const idle = await editorRing(editor);
    await tabTo(page, 'convert-editor', { max: 60 });
    await expect(editor).toBeFocused();
    const focused = await editorRing(editor);
    // A ring of at least 2 px that was not there before: an outline or a box shadow.
    expect(idle.outline).toBe(0);
    expect(focused.outline >= 2 || focused.shadows !== idle.shadows, JSON.stringify({ idle, focused })).toBe(true);
    await editor.scrollIntoViewIfNeeded();
    await screenshot(page, `convert-editor-focus-${size.name}`, { fullPage: false });
  }
});

test('on a phone the purchase window shows its buy button whole, price included', async ({ page }) => {
  await logInAs(page, writer, /\/dashboard$/);
  await page.setViewportSize({ width: 390, height: 844 });
  // The longest pack name, waking hours: the server is made to answer that they ran out, as it
  // does when a Voice is woken without any left (waking one for real needs a trained Voice).
  await page.route('**/api/loras', (route) =>
    route.request().method() === 'POST'
      ? route.fulfill({
          status: 400,
          json: {
            msg: 'You have no Voice waking hours left in your usage limits. Buy more usage to continue.',
            code: 'INSUFFICIENT_LIMIT',
            reason: 'insufficient_limit',
            limitType: 'activationHours',
          },
        })
      : route.fallback(),
  );
  await page.goto('/dashboard/create');
  await page.getByTestId('create-voice-name').fill('Too late');
  await page.getByTestId('create-voice-text').fill(prose(24_000, 0.6));
  await page.getByTestId('create-voice-submit').click();
  const purchase = page.getByRole('dialog', { name: 'Insufficient resources' });
  await expect(purchase).toBeVisible();
  const buy = purchase.getByTestId('purchase-quick-topup');
  await expect(buy).toHaveText(/^Buy \+10 Voice waking hours — \$\d+\.\d\d$/);
  await expect(buy).toBeInViewport({ ratio: 1 });
  // Every word of the label is drawn inside the button: nothing clipped at its edge.
  const clipped = await buy.evaluate((button) => {
    const box = button.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(button);
    return Array.from(range.getClientRects()).some(
      (r) => r.width > 0 && (r.right > box.right + 0.5 || r.left < box.left - 0.5),
    );
  });
  expect(clipped).toBe(false);
  const label = await buy.evaluate((button) => {
    const inner = button.querySelector('.mantine-Button-label') ?? button;
    return { scroll: inner.scrollWidth, client: inner.clientWidth };
  });
  expect(label.scroll).toBeLessThanOrEqual(label.client);
  expect(await accessibilityFindings(page, 'the purchase window at 390 px')).toEqual([]);
  await page.waitForTimeout(300); // the modal's fade-in, for the picture
  await screenshot(page, 'purchase-window-phone', { fullPage: false });
});

test('every admin page passes axe and fits a phone; row actions are in view and in reach of the keyboard', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.goto('/auth?tab=login&redirect=%2Fdashboard%2Faccount');
  await logIn(page, E2E_SCREENS_ADMIN.email, E2E_SCREENS_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard\/account$/);
  const { codesDialog } = await enableTwoFactorOnAccountPage(page);
  await codesDialog.getByRole('button', { name: 'I have saved them' }).click();

  // The writer's id, for their activity page, from the console's own list.
  await page.goto('/admin/dashboard?tab=users');
  await page.getByRole('textbox', { name: 'Search users' }).fill(writer.username);
  const row = page.getByTestId(`admin-user-row-${writer.username}`);
  await expect(page.getByTestId('admin-users').locator('tbody tr')).toHaveCount(1);
  const activityLink = row.getByRole('link', { name: 'Activity' });
  const activityPath = (await activityLink.getAttribute('href')) ?? '';
  expect(activityPath).toMatch(/^\/admin\/users\/[0-9a-f]{24}\/activity$/);

  const findings = await sweep(page, [
    { route: '/admin' },
    {
      route: '/admin/dashboard?tab=users',
      prepare: async (p) => {
        await p.getByRole('textbox', { name: 'Search users' }).fill(writer.username);
        await expect(p.getByTestId('admin-users').locator('tbody tr')).toHaveCount(1);
      },
    },
    { route: '/admin/dashboard?tab=invites' },
    { route: activityPath, name: "a user's activity" },
  ]);
  expect.soft(findings).toEqual([]);

  // On a phone, the row's actions are on screen without scrolling sideways, and Tab reaches them.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/dashboard?tab=users');
  await page.getByRole('textbox', { name: 'Search users' }).fill(writer.username);
  await expect(page.getByTestId('admin-users').locator('tbody tr')).toHaveCount(1);
  for (const name of ['Grant credits', 'Edit limits', 'Activity', 'Delete user']) {
    await expect.soft(row.getByRole(name === 'Activity' ? 'link' : 'button', { name })).toBeInViewport({ ratio: 1 });
  }
  await screenshot(page, 'admin-users-phone', { fullPage: false });
  const grant = row.getByRole('button', { name: 'Grant credits' });
  for (let press = 0; press < 40 && !(await grant.evaluate((b) => b === document.activeElement)); press++) {
    await page.keyboard.press('Tab');
  }
  await expect(grant).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: `Grant credits to ${writer.username}` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // The activity table scrolls sideways on a phone; its scroll box takes the focus, and the arrow
  // keys scroll it.
  await page.goto(activityPath);
  const region = page.getByRole('region', { name: 'Activity' });
  await expect(page.getByTestId('activity-row').first()).toBeVisible();
  await expect(region).toBeVisible();
  expect(await region.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
  for (let press = 0; press < 40 && !(await region.evaluate((box) => box === document.activeElement)); press++) {
    await page.keyboard.press('Tab');
  }
  await expect(region).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
  await screenshot(page, 'admin-activity-phone', { fullPage: false });
});

test('the API reference fits a phone: nothing scrolls sideways but its tables, each by keyboard too', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  expect(await accessibilityFindings(page, '/api/docs at 390 px', { moderate: true })).toEqual([]);
  await page.locator('#errors').scrollIntoViewIfNeeded();
  await screenshot(page, 'api-docs-phone', { fullPage: false });
});
