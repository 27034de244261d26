// Onboarding from the browser, end to end on the tiny house model: an admin bypassing it from the
// choice screen, and a new user climbing the whole ladder: pay later (the offline test checkout),
// a first Voice, the dashboard tour, the Create tour, the dashboard following the Voice as it
// trains and wakes, the Convert tour and quickstart, the Create quickstart, and Finish tutorial on
// the plans page (which finishes the trial first). Each tour panel is saved as
// e2e/artifacts/tour-*.png for review.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  completeTestCheckout,
  E2E_ADMIN,
  e2eDir,
  expect,
  expectPaymentConfirmed,
  logIn,
  registerThroughForm,
  runId,
  screenshot,
  test,
} from './support';

const corpus = readFileSync(path.join(e2eDir, '..', 'packages', 'engine', 'corpus', 'jargon.txt'), 'utf8');
const start = corpus.indexOf('\n\n', Math.floor(corpus.length * 0.2)) + 2;
const writing = corpus.slice(start, corpus.indexOf('\n\n', start + 21_000));

const learner = {
  username: `learner_${runId}`,
  email: `learner-${runId}@example.com`,
  password: 'Corr3ct-Horse-Battery',
};
const voiceName = `Tour ${runId.slice(0, 6)}`;

/** The signed-in user's onboarding step, as the server has it. */
const stepOf = (page: Page) =>
  page.evaluate(async () => {
    const token = localStorage.getItem('ownvoice.token');
    const res = await fetch('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
    return ((await res.json()) as { user: { onboarding: { step: string } } }).user.onboarding.step;
  });

/** A tutorial panel never covers the control it points at. */
async function expectClearOf(panel: Locator, target: Locator) {
  const a = await panel.boundingBox();
  const b = await target.boundingBox();
  expect(a && b).toBeTruthy();
  if (!a || !b) return;
  const overlaps = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  expect(overlaps, `panel ${JSON.stringify(a)} covers target ${JSON.stringify(b)}`).toBe(false);
}

/** Walks a tour from its first panel to its last, saving each as tour-<name>-<n>.png. */
async function walkTour(page: Page, testId: string, name: string, count: number) {
  const panel = page.getByTestId(testId);
  for (let n = 1; n <= count; n += 1) {
    await expect(panel.getByTestId(`${testId}-counter`)).toHaveText(`Step ${n} of ${count}`);
    await screenshot(page, `tour-${name}-${n}`, { fullPage: false });
    if (n < count) await panel.getByRole('button', { name: 'Next' }).click();
  }
}

test.describe('Onboarding', () => {
  test('an admin bypasses onboarding from the choice screen and can use everything', async ({ page }) => {
    await page.goto('/auth?tab=login');
    await logIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    // Still onboarding: the dashboard is not open yet, the choice screen is.
    await expect(page).toHaveURL(/\/onboarding\/choice$/);
    const bypass = page.getByRole('link', { name: 'Bypass onboarding' });
    await expect(bypass).toBeVisible();
    await screenshot(page, 'onboarding-admin-bypass');
    await bypass.click();
    // The parameter is acted on, then dropped.
    await expect(page).toHaveURL(/\/dashboard\/create$/);
    await expect.poll(() => stepOf(page)).toBe('tutorial_complete');
    await expect(page.getByRole('button', { name: 'Skip this step' })).toHaveCount(0);
    for (const path of ['/dashboard', '/dashboard/plans', '/dashboard/convert', '/dashboard/create-content']) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
    await expect(page.getByTestId('create-tour')).toHaveCount(0);
  });

  test('a new user climbs the whole ladder, tour by tour', async ({ page }) => {
    test.setTimeout(900_000);
    await registerThroughForm(page, learner);
    await page.getByRole('link', { name: 'Pay later' }).click();
    await page.getByTestId('pay-later-start').click();
    await completeTestCheckout(page, 'Start trial');
    await expectPaymentConfirmed(page);
    expect(await stepOf(page)).toBe('trial_ready');

    // Voice creation: the tutorial panel, reachable from the keyboard.
    await page.goto('/dashboard/create');
    const hint = page.getByTestId('create-voice-tutorial');
    await expect(hint).toBeFocused();
    await expect(hint.getByTestId('create-voice-tutorial-counter')).toHaveText('Step 1 of 1');
    await screenshot(page, 'tour-create-voice', { fullPage: false });
    await page.keyboard.press('Escape');
    await expect(hint).toHaveCount(0);
    await page.getByTestId('create-voice-name').fill(voiceName);
    await page.getByTestId('create-voice-text').fill(writing);
    await page.getByTestId('create-voice-submit').click();
    await expect(page).toHaveURL(/\/dashboard\/loras\/[0-9a-f]{24}\/training$/, { timeout: 30_000 });
    expect(await stepOf(page)).toBe('training_started');

    // The dashboard tour: four panels, Back and Next, clear of the card it is about.
    await page.goto('/dashboard');
    const card = page.getByTestId('voice-card').filter({ hasText: voiceName });
    const tour = page.getByTestId('dashboard-tour');
    await expect(tour).toBeVisible();
    await expectClearOf(tour, card);
    await tour.getByRole('button', { name: 'Next' }).click();
    await tour.getByRole('button', { name: 'Back' }).click();
    await walkTour(page, 'dashboard-tour', 'dashboard', 4);
    await tour.getByRole('button', { name: 'Finish' }).click();
    await expect(tour).toHaveCount(0);
    // Closed stays closed.
    await page.reload();
    await expect(card).toBeVisible();
    await expect(tour).toHaveCount(0);

    // The Create tour: seven panels; finishing it moves the step on.
    await page.goto('/dashboard/create-content');
    await walkTour(page, 'create-tour', 'create', 7);
    await page.getByTestId('create-tour-finish').click();
    await expect(page.getByTestId('create-tour')).toHaveCount(0);
    await expect.poll(() => stepOf(page)).toBe('rephrasing_tour_complete');

    // The dashboard now follows the Voice: training, ready, (waking up), awake.
    await page.goto('/dashboard');
    const counter = tour.getByTestId('dashboard-tour-counter');
    if ((await card.getAttribute('data-status')) === 'training') {
      await expect(counter).toHaveText('Step 1 of 4');
      await screenshot(page, 'tour-follow-training', { fullPage: false });
    }
    await expect(card).toHaveAttribute('data-status', 'ready', { timeout: 600_000 });
    // The panels start at the Voice's state: none about training behind it.
    await expect(counter).toHaveText('Step 1 of 3');
    await expect(tour).toContainText('Wake it up');
    await expectClearOf(tour, card);
    await screenshot(page, 'tour-follow-ready', { fullPage: false });
    await card.getByRole('button', { name: 'Wake Up' }).click();
    await expect(tour).toContainText(/Waking up|Convert with it/);
    if ((await counter.textContent()) === 'Step 1 of 2') await screenshot(page, 'tour-follow-activating');
    await expect(card).toHaveAttribute('data-status', 'active', { timeout: 60_000 });
    await expect(counter).toHaveText('Step 1 of 1');
    await expectClearOf(tour, card.getByRole('link', { name: 'Convert' }));
    await screenshot(page, 'tour-follow-active', { fullPage: false });
    await card.getByRole('link', { name: 'Convert' }).click();
    await expect.poll(() => stepOf(page)).toBe('activation_tour_complete');

    // The Convert tour, then the quickstart with the sample text, then a first conversion.
    await expect(page).toHaveURL(/\/dashboard\/convert\?loraId=[0-9a-f]{24}$/);
    const convertTour = page.getByTestId('convert-tour');
    await expect(convertTour).toBeVisible();
    await expectClearOf(convertTour, page.getByTestId('convert-voice-select'));
    await walkTour(page, 'convert-tour', 'convert', 4);
    await convertTour.getByRole('button', { name: 'Finish' }).click();
    const quickstart = page.getByTestId('convert-quickstart');
    await expect(quickstart).toBeVisible();
    await screenshot(page, 'tour-convert-quickstart', { fullPage: false });
    await quickstart.getByRole('button', { name: 'Use sample text' }).click();
    await expect(page.getByTestId('convert-editor')).toContainText('Why small businesses should start a blog');
    await expect(quickstart).toHaveCount(0);
    await page.getByTestId('convert-submit').click();
    await expect(page.getByTestId('convert-done')).toBeVisible({ timeout: 150_000 });
    await screenshot(page, 'tour-convert-done', { fullPage: false });
    await expect.poll(() => stepOf(page)).toBe('convert_quickstart_complete');

    // The Create quickstart fills in the sample prompt; finishing it leads to Plans.
    await page.getByTestId('convert-done-create').click();
    await expect(page).toHaveURL(/\/dashboard\/create-content/);
    const createQuickstart = page.getByTestId('create-quickstart');
    await expect(createQuickstart).toBeVisible();
    await expect(page.getByTestId('create-prompt')).toHaveValue(/weekly newsletter/);
    await expectClearOf(createQuickstart, page.getByTestId('create-generate'));
    await screenshot(page, 'tour-create-quickstart', { fullPage: false });
    await createQuickstart.getByRole('button', { name: 'Finish' }).click();
    await expect.poll(() => stepOf(page)).toBe('create_quickstart_complete');
    const wrapUp = page.getByTestId('create-wrap-up');
    await expect(wrapUp).toBeVisible();
    await screenshot(page, 'tour-create-wrap-up', { fullPage: false });
    await wrapUp.getByRole('link', { name: 'See plans' }).click();

    // Finish tutorial on the trial: the trial is finished first, then onboarding is over.
    await expect(page).toHaveURL(/\/dashboard\/plans$/);
    await page.getByTestId('finish-tutorial').click();
    // Finishing the trial with it charges the card: asked first, with the amount, and confirmed after.
    const ask = page.getByRole('dialog', { name: 'Start the Minimum plan now?' });
    await expect(ask).toContainText('This finishes the tutorial.');
    await expect(ask).toContainText('The first charge is $10.00');
    await screenshot(page, 'plans-confirm-finish-tutorial', { fullPage: false });
    await ask.getByRole('button', { name: 'Start and pay $10.00' }).click();
    await expect(page.getByText('$10.00 was charged to your card')).toBeVisible();
    await expect.poll(() => stepOf(page)).toBe('tutorial_complete');
    await expect(page.getByTestId('finish-tutorial-panel')).toHaveCount(0);
    await page.goto('/dashboard');
    await expect(card).toBeVisible();
    await expect(tour).toHaveCount(0);
  });
});
