// Every dialog a new subscriber reaches, by keyboard alone (issue 57): Tab to the control that opens
// it, Enter, the focus on the safe choice where the dialog asks a question, Escape, and the focus
// back on that control. The offline payment provider stands in for the bank.
import type { Locator, Page } from '@playwright/test';
import { expect, payNowAtOnboarding, registerThroughForm, runId, test } from './support';

test.describe.configure({ mode: 'serial' });

const account = {
  username: `focus_${runId}`,
  email: `focus-${runId}@example.com`,
  password: 'Passw0rd-e2e',
};

/** Presses Tab until `control` has the focus. */
async function tabTo(page: Page, control: Locator, max = 80): Promise<void> {
  for (let press = 0; press < max; press++) {
    if (await control.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${await control.textContent()} was not reached with the keyboard in ${max} presses`);
}

/**
 * Opens the dialog named `name` from `opener` with Enter; checks the focus is on `safe` (a button's
 * name) when given, else somewhere inside; closes it with Escape and checks the focus came back.
 */
async function walk(page: Page, opener: Locator, name: string | RegExp, safe?: string): Promise<void> {
  await page.keyboard.press('Escape'); // nothing open; leaves the focus where it is
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  if (safe) {
    await expect(dialog.getByRole('button', { name: safe, exact: true }).last()).toBeFocused();
  } else {
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

test('each dialog opens on its safe choice and gives focus back to its opener', async ({ page }) => {
  test.setTimeout(180_000);
  await registerThroughForm(page, account);
  await payNowAtOnboarding(page, 'minimum');

  await page.goto('/dashboard/plans');
  await walk(page, page.getByTestId('plan-button-pro'), /^Upgrade to Pro/, 'Cancel');

  await page.goto('/dashboard/account');
  const main = page.getByRole('main');
  await walk(page, page.getByTestId('cancel-subscription'), 'Cancel your subscription?', 'Cancel');
  await walk(page, main.getByRole('button', { name: 'Change address' }), 'Change your address');
  await walk(page, main.getByRole('button', { name: 'Change password' }), 'Change your password');
  await walk(page, main.getByRole('button', { name: 'Set up two-factor' }), 'Set up two-factor authentication');
  await walk(page, main.getByRole('button', { name: 'New key' }), 'New API key');
  await walk(page, main.getByRole('button', { name: 'Delete Account' }), 'Delete your account');
});
