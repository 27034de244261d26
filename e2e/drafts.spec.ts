// Nothing typed is lost where money meets work: the create-Voice form keeps the pasted text, the
// name and the chosen files across an accidental reload and across the checkout round trip for
// what the Voice needs, which one checkout buys (a storage slot and a training).
import {
  completeTestCheckout,
  expect,
  expectPaymentConfirmed,
  prose,
  registerThroughForm,
  runId,
  screenshot,
  tabTo,
  test,
} from './support';

test('the create-Voice form survives a reload and a top-up round trip', async ({ page }) => {
  test.setTimeout(120_000);
  await registerThroughForm(page, {
    username: `drafter_${runId}`,
    email: `drafter-${runId}@example.com`,
    password: 'Corr3ct-Horse-Battery',
  });
  await page.goto('/dashboard/create');
  const name = page.getByTestId('create-voice-name');
  const text = page.getByTestId('create-voice-text');
  const pasted = prose(24_000, 0.2);
  await name.fill('Field notes');
  await text.fill(pasted);
  await page
    .getByTestId('create-voice-form')
    .locator('input[type="file"]')
    .setInputFiles([{ name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from(prose(3_000, 0.7)) }]);
  await expect(page.getByTestId('file-row')).toHaveCount(1);
  await expect(page.getByTestId('file-row').getByTestId('file-characters')).toContainText(/\d,\d{3}/);

  await page.waitForTimeout(500); // the draft is written a moment after the last change
  await page.reload();
  await expect(name).toHaveValue('Field notes');
  await expect(text).toHaveValue(pasted);
  await expect(page.getByTestId('file-row')).toContainText('notes.md');

  // No plan yet: the Voice needs what the account does not have; buying it leaves for the
  // checkout. The purchase window works from the keyboard: Escape closes it, Tab reaches its
  // buttons, Enter buys.
  await tabTo(page, 'create-voice-submit');
  await page.keyboard.press('Enter');
  const purchase = page.getByRole('dialog', { name: 'Insufficient resources' });
  await expect(purchase).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(purchase).toBeHidden();
  // Closed, it gives the focus back to the button that opened it.
  await expect(page.getByTestId('create-voice-submit')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(purchase).toBeVisible();
  // The Voice needs a storage slot and a training, and the window names both: one checkout buys them.
  await expect(purchase).toContainText('This needs Voice storage slots and trainable Voices');
  await expect(purchase.getByTestId('purchase-quick-topup-card')).toContainText(
    '+50 Voice storage slots and +1 Trainable Voice',
  );
  await expect(purchase.getByTestId('purchase-quick-topup')).toHaveText('Buy both — $23.98');
  await page.waitForTimeout(300); // the modal's fade-in, for the picture
  await screenshot(page, 'purchase-everything-a-voice-needs', { fullPage: false });
  await tabTo(page, 'purchase-quick-topup');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('offline-checkout-amount')).toHaveText('$23.98');
  await completeTestCheckout(page);
  await expectPaymentConfirmed(page);
  await page.getByTestId('payment-continue').click();
  await expect(page).toHaveURL(/\/dashboard\/create$/);
  await expect(name).toHaveValue('Field notes');
  await expect(text).toHaveValue(pasted);
  await expect(page.getByTestId('file-row')).toContainText('notes.md');
  await expect(page.getByTestId('file-row').getByTestId('file-characters')).toContainText(/\d,\d{3}/);
  await screenshot(page, 'create-voice-after-top-up');
  // Nothing else is missing now: the Voice is created at the first try.
  await page.getByTestId('create-voice-submit').click();
  await expect(page).toHaveURL(/\/dashboard\/loras\/[0-9a-f]{24}\/training$/, { timeout: 30_000 });
  await expect(page.getByRole('dialog', { name: 'Insufficient resources' })).toHaveCount(0);
});
