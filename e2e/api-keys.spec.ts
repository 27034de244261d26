// API keys from the account page, end to end: make one with the password again (its secret shown
// once, its making mailed to the address), use it from Node as a program would (no cookies, no
// CSRF token) to list the person's Voices, see its last use, find account routes closed to it, then
// revoke it and find it refused. Screenshots of the new key and the card go to e2e/artifacts/.
import { confirmAddress, expect, expectAccessible, logIn, mailTo, registerViaApi, screenshot, test } from './support';

test('API keys: create one on the account page, call the API with it from Node, revoke it', async ({
  page,
  playwright,
  baseURL,
}) => {
  const account = await registerViaApi(page.request, 'keys');
  // Keys need a confirmed address.
  await confirmAddress(page, account.email);
  await page.goto('/auth?tab=login&redirect=%2Fdashboard%2Faccount');
  await logIn(page, account.email, account.password);
  const card = page.getByTestId('api-keys-card');
  await expect(card).toContainText('No keys yet.');

  await card.getByTestId('api-key-new').click();
  const dialog = page.getByTestId('api-key-dialog');
  await dialog.getByTestId('api-key-name').fill('My editor');
  await dialog.getByTestId('api-key-scope-create').click(); // this one may read and Convert only
  await expectAccessible(page, 'the new API key form');
  // The password again: a wrong one is refused, and said so.
  await dialog.getByTestId('api-key-password').fill('Not-the-passw0rd');
  await dialog.getByTestId('api-key-create').click();
  await expect(dialog.getByTestId('form-error')).toContainText('That password is not right');
  await dialog.getByTestId('api-key-password').fill(account.password);
  await dialog.getByTestId('api-key-create').click();
  const secret = await dialog.getByTestId('api-key-secret').inputValue();
  expect(secret).toMatch(/^ovk_[A-Za-z0-9_-]{43}$/);
  await expect(dialog).toContainText('it will not be shown again');
  await screenshot(page, 'api-key-created', { fullPage: false });
  await dialog.getByTestId('api-key-done').click();
  await expect(dialog).toBeHidden();

  const row = card.getByTestId('api-key-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('My editor');
  await expect(row).toContainText(secret.slice(0, 12));
  await expect(row).not.toContainText(secret);
  await expect(row).toContainText('Never used');
  const told = await mailTo(page.request, account.email, 'A new API key for your OwnVoice account');
  expect(told.text).toContain('"My editor"');

  // A program: only the key, nothing of the browser's.
  const program = await playwright.request.newContext({ baseURL: baseURL as string });
  const headers = { authorization: `Bearer ${secret}` };
  const voices = await program.get('/api/loras', { headers });
  expect(voices.status()).toBe(200);
  expect(await voices.json()).toEqual([]);
  const account_ = await program.get('/api/auth/me', { headers });
  expect([account_.status(), (await account_.json()).code]).toEqual([403, 'API_KEY_NOT_ALLOWED']);
  const create = await program.post('/api/content/generate-stream', { headers, multipart: { prompt: 'x' } });
  expect([create.status(), (await create.json()).code]).toEqual([403, 'API_KEY_SCOPE']);

  await page.reload();
  await expect(row).toContainText('Last used');
  await screenshot(page, 'api-keys-card');

  await row.getByRole('button', { name: 'Revoke My editor' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(card).toContainText('No keys yet.');
  const refused = await program.get('/api/loras', { headers });
  expect([refused.status(), (await refused.json()).code]).toEqual([401, 'API_KEY_REVOKED']);
  await program.dispose();
});
