// What every e2e spec shares: screenshots for review, a run id that keeps accounts unique across
// runs against the same server, sign-up through the API and log-in through the form.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const artifactsDir = path.join(e2eDir, 'artifacts');

export const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: true });

// Unique per run, so the specs also pass against a server with data from earlier runs.
export const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** Creates an account through the API, as the browser would: CSRF token first. */
export async function registerViaApi(request: APIRequestContext, suffix: string) {
  const account = {
    username: `p_${suffix}_${runId}`,
    email: `p-${suffix}-${runId}@example.com`,
    password: 'Passw0rd-e2e',
  };
  const { csrfToken } = (await (await request.get('/api/csrf-token')).json()) as { csrfToken: string };
  const response = await request.post('/api/auth/register', { headers: { 'X-CSRF-Token': csrfToken }, data: account });
  expect(response.status()).toBe(201);
  return account;
}

/** Fills and sends the login form on the page it is on. */
export async function logIn(page: Page, email: string, password: string) {
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
}
