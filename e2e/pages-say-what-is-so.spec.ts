// Pages that describe the state they are in, end to end in chromium with one new account: a
// cancelled checkout back on the form it came from, a success page that says what was bought and
// for how much, one character count on Create Voice with the tutorial off the field being filled,
// a hard-wrapped e-mail pasted into Convert as paragraphs, an address naming no Voice, and the
// dashboard tour on a ready (forked) Voice, out of sight while a dialog is open, with no internal
// ids on the Voice's page. The forked Voice is the server's list answered by the test (page.route):
// the tour is about what the page shows, and training one would take minutes.
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import {
  completeTestCheckout,
  e2eDir,
  expect,
  expectPaymentConfirmed,
  pasteIntoEditor,
  registerThroughForm,
  runId,
  screenshot,
  test,
} from './support';

// Fixed for the whole run, workers included: a worker started again after a failed test loads this
// module anew (a new runId), and the later tests must still find the account the first one made.
const runKey = path.basename(process.env.E2E_DATA_DIR ?? runId).replace(/\W/g, '');
const account = {
  username: `honest_${runKey}`,
  email: `honest-${runKey}@example.com`,
  password: 'Corr3ct-Horse-Battery',
};

const FORK_ID = 'f0f0f0f0f0f0f0f0f0f0f0f0';
/** A Voice as the server lists a fork: ready from the start, never trained here, no pipeline id. */
const fork = {
  _id: FORK_ID,
  name: `Forked ${runId.slice(0, 6)}`,
  status: 'ready',
  progress: 100,
  statusMessage: null,
  isPublic: false,
  createdAt: new Date().toISOString(),
  pipeline_id: null,
  stage: null,
  etaSeconds: null,
  characters: 42_000,
  evaluation: null,
  ownerName: account.username,
  isOwner: true,
  canDownload: false,
  baseModel: null,
};

const overlaps = async (a: Locator, b: Locator): Promise<boolean> => {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
};

/** The signed-in browser of the first test, so the others need no sign-in (each spends the account's budget). */
const signedIn = path.join(e2eDir, 'artifacts', `honest-${runKey}.json`);

/** The server's list answered with the fork (and the fork itself), as the test's own server would. */
async function serveFork(page: Page) {
  await page.route('**/api/loras', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: [fork] }) : route.continue(),
  );
  await page.route(`**/api/loras/${FORK_ID}`, (route) => route.fulfill({ json: fork }));
}

// In order, one account; not serial, so that on older code each check fails on its own.
test.describe('Pages say what is so: the account', () => {
  test('paying says what was bought and for how much', async ({ page }) => {
    await registerThroughForm(page, account);
    await page.getByRole('link', { name: 'Pay now and get 15% off' }).click();
    await expect(page).toHaveURL(/\/onboarding\/plans$/);
    await page.getByTestId('plan-button-minimum').click();
    await completeTestCheckout(page, 'Pay');
    await expectPaymentConfirmed(page);
    await page.context().storageState({ path: signedIn });
    await expect(page.getByTestId('payment-purchase-item')).toHaveText('Minimum plan, billed monthly');
    await expect(page.getByTestId('payment-purchase-amount')).toHaveText('$7.64 a month · 15% off for life');
    await screenshot(page, 'payment-success-what-was-bought', { fullPage: false });
  });
});

test.describe('Pages say what is so', () => {
  test.use({ storageState: signedIn });

  test('a cancelled checkout goes back to the form it came from', async ({ page }) => {
    await page.goto('/dashboard/plans#topups');
    await page.getByTestId('pack-buy-extra_chunk_edits').click();
    await completeTestCheckout(page, 'Cancel');
    await expect(page).toHaveURL(/\/dashboard\/plans#topups$/);
    await expect(page.getByText('Your payment was cancelled. No charges were made to your account.')).toBeVisible();
    await expect(page.getByTestId('topups')).toBeVisible();
    await screenshot(page, 'checkout-cancelled-back-on-form', { fullPage: false });
  });

  test('Create Voice states one character count', async ({ page }) => {
    await page.goto('/dashboard/create');
    // Double spaces and wrapped lines: counted as training counts them, a raw length would differ.
    await page.getByTestId('create-voice-text').fill('My own words,  written on a train\nand wrapped.  '.repeat(40));
    await expect(page.getByText(/characters pasted/)).toHaveCount(0);
    await expect(page.getByTestId('create-voice-too-few')).toContainText(/You currently have [\d,]+ characters\./);
    await expect(page.getByTestId('create-voice-form').getByText(/[\d,]+ characters/)).toHaveCount(1);
    await screenshot(page, 'create-voice-one-count', { fullPage: false });
  });

  test('a hard-wrapped e-mail pasted into Convert keeps its paragraphs, not one per line', async ({ page }) => {
    await page.goto('/dashboard/convert');
    const editor = page.getByTestId('convert-editor');
    await expect(editor).toBeVisible();
    await pasteIntoEditor(
      page,
      'Dear committee,\r\n\r\nThe spring fair moves to the school field this year, where there is more\r\nroom for stalls and the cake stall can stay by the main door.\r\n\r\nVolunteers arrive by eight to set up the\r\ntables.\r\n',
    );
    await expect(editor.locator('p')).toHaveCount(3);
    await expect(editor.locator('p').nth(1)).toHaveText(
      'The spring fair moves to the school field this year, where there is more room for stalls and the cake stall can stay by the main door.',
    );
    await screenshot(page, 'convert-pasted-email', { fullPage: false });
  });

  test('an address naming no Voice says the Voice does not exist', async ({ page }) => {
    for (const path of [
      '/dashboard/loras/000000000000000000000000',
      '/dashboard/loras/not-a-voice',
      '/dashboard/loras/000000000000000000000000/training',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Voice not found' })).toBeVisible();
      await expect(page.getByTestId('voice-not-found')).toContainText('This Voice does not exist');
      await expect(page.getByText(/Failed to fetch|hexadecimal/)).toHaveCount(0);
    }
    await screenshot(page, 'voice-not-found', { fullPage: false });
  });

  test('the dashboard tour on a forked, ready Voice says to wake it, not that it is training', async ({ page }) => {
    // No Voice of its own: the onboarding moves on to the dashboard tour's step.
    await page.goto('/dashboard/create');
    // The Voice tutorial opens focused; Esc closes it, clearing the way to Skip.
    await expect(page.getByTestId('create-voice-tutorial')).toBeFocused();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Skip this step' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await serveFork(page);
    await page.reload();
    const tour = page.getByTestId('dashboard-tour');
    await expect(tour.getByRole('heading', { name: 'Wake it up' })).toBeVisible();
    await expect(tour).not.toContainText('training');
    await expect(tour.getByTestId('dashboard-tour-counter')).toHaveText('Step 1 of 3');
    await screenshot(page, 'dashboard-tour-forked-voice', { fullPage: false });
  });

  test('the Convert tour keeps off the editor being typed in, on a phone', async ({ page }) => {
    // On a phone the panel takes the whole width: no corner of it is clear of the tall editor.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard/convert');
    const tour = page.getByTestId('convert-tour');
    await expect(tour).toBeVisible();
    const editor = page.getByTestId('convert-editor');
    // Into the editor from the keyboard's side: the panel may sit over it until the person is in it.
    await editor.focus();
    await page.keyboard.type('Dear committee,');
    await expect(editor).toBeFocused();
    await expect.poll(async () => (await tour.isHidden()) || !(await overlaps(tour, editor))).toBe(true);
    await screenshot(page, 'convert-tour-off-the-editor', { fullPage: false });
    // Out of the editor, the tour is back.
    await page.keyboard.press('Shift+Tab');
    await expect(tour).toBeVisible();
  });

  test('the dashboard tour steps out of sight while a dialog is open', async ({ page }) => {
    await serveFork(page);
    await page.goto('/dashboard');
    const tour = page.getByTestId('dashboard-tour');
    await expect(tour).toBeVisible();
    const card = page.getByTestId('voice-card').filter({ hasText: fork.name });
    await card.getByTestId('voice-menu').click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename Voice' });
    await expect(dialog).toBeVisible();
    await expect(tour).toBeHidden();
    await screenshot(page, 'dashboard-tour-under-dialog', { fullPage: false });
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(tour).toBeVisible();
  });

  test('a Voice’s page shows no pipeline id', async ({ page }) => {
    await serveFork(page);
    await page.goto(`/dashboard/loras/${FORK_ID}`);
    await expect(page.getByTestId('voice-facts')).toBeVisible();
    await expect(page.getByText(/pipeline/i)).toHaveCount(0);
  });
});
