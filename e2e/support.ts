// What every e2e spec shares: `test` that fails on any Content-Security-Policy violation,
// screenshots for review, a run id that keeps accounts unique across runs against the same
// server, sign-up through the API and log-in through the form.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, test as base, expect, type Page } from '@playwright/test';
import { withCheckDigit } from '../apps/server/src/payments/test-cards';

export { expect };

/**
 * Playwright's `test`, watching every page of the test's browser context: the app runs under the
 * server's strict Content-Security-Policy, and anything it blocks (an inline script, an eval, a
 * foreign request) fails the test that caused it.
 */
export const test = base.extend<{ cspViolations: undefined }>({
  cspViolations: [
    async ({ context }, use) => {
      const violations: string[] = [];
      const watch = (page: Page) =>
        page.on('console', (message) => {
          if (message.type() === 'error' && message.text().includes('Content Security Policy')) {
            violations.push(`${page.url()}: ${message.text()}`);
          }
        });
      for (const page of context.pages()) watch(page);
      context.on('page', watch);
      await use(undefined);
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * The serious and critical axe findings (WCAG 2.1 A and AA, and with `moderate` the moderate ones
 * and axe's heading-order rule too) on the page as it is now, each naming `what`, the rule and the
 * elements.
 */
export async function accessibilityFindings(page: Page, what: string, { moderate = false } = {}): Promise<string[]> {
  const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', ...(moderate ? ['best-practice'] : [])];
  const impacts = moderate ? ['moderate', 'serious', 'critical'] : ['serious', 'critical'];
  const results = await new AxeBuilder({ page }).withTags(tags).analyze();
  return results.violations
    .filter((v) => impacts.includes(v.impact ?? ''))
    .map((v) => `${what}: ${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Fails on any serious or critical axe finding on the page as it is now. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  expect(await accessibilityFindings(page, what), `axe on ${what}`).toEqual([]);
}

export const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const artifactsDir = path.join(e2eDir, 'artifacts');

const corpus = readFileSync(path.join(e2eDir, '..', 'packages', 'engine', 'corpus', 'jargon.txt'), 'utf8');
/** About `chars` characters of real prose, from `at` (0..1) into the Jargon File (the house model's corpus). */
export function prose(chars: number, at: number): string {
  const start = corpus.indexOf('\n\n', Math.floor(corpus.length * at)) + 2;
  return corpus.slice(start, corpus.indexOf('\n\n', start + chars));
}

/** Saves e2e/artifacts/<name>.png, the whole page unless `fullPage` is false (the viewport). */
export const screenshot = (page: Page, name: string, { fullPage = true } = {}) =>
  page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage });

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

const mailbox = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 8080) + 26}/messages`;

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Every message the e2e mail server (e2e/mail-sink.ts) received for `email`, oldest first. */
export async function inbox(request: APIRequestContext, email: string): Promise<ReceivedMail[]> {
  const messages = (await (await request.get(mailbox)).json()) as ReceivedMail[];
  return messages.filter((m) => m.to === email);
}

/** Waits for the newest mail to `email` whose subject matches, and answers it. */
export async function mailTo(
  request: APIRequestContext,
  email: string,
  subject: string | RegExp,
): Promise<ReceivedMail> {
  let found: ReceivedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await inbox(request, email))
          .filter((m) => (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject)))
          .at(-1);
        return found !== undefined;
      },
      { timeout: 30_000, message: `a mail to ${email} with subject ${subject}` },
    )
    .toBe(true);
  return found as ReceivedMail;
}

/** The first link to `pathname` (e.g. '/auth/verify') in a received mail's text. */
export function linkIn(mail: ReceivedMail, pathname: string): string {
  const link = new RegExp(`https?://\\S+${pathname.replace(/[/?]/g, '\\$&')}\\?token=[\\w-]+`).exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  return link as string;
}

/** Opens the address-confirmation link the service mailed to `email`, as its owner would. */
export async function confirmAddress(page: Page, email: string): Promise<void> {
  const mail = await mailTo(page.request, email, 'Confirm your OwnVoice address');
  await page.goto(linkIn(mail, '/auth/verify'));
  await expect(page.getByTestId('verify-email')).toHaveAttribute('data-state', 'success');
}

/** Fills and sends the Create account form on the page it is on. */
export async function fillRegistration(
  page: Page,
  values: { username: string; email: string; password: string; confirmPassword?: string },
) {
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('Username').fill(values.username);
  await form.getByLabel('E-mail').fill(values.email);
  await form.getByLabel('Password', { exact: true }).fill(values.password);
  await form.getByLabel('Confirm password').fill(values.confirmPassword ?? values.password);
  await form.getByRole('button', { name: 'Create account' }).click();
}

/**
 * Signs up through the form, as a person does, and lands on the onboarding choice; unless told
 * otherwise, first opens the confirmation link from the mail (a trial needs a confirmed address).
 */
export async function registerThroughForm(
  page: Page,
  account: { username: string; email: string; password: string },
  { confirm = true } = {},
) {
  await page.goto('/auth?tab=register');
  await fillRegistration(page, account);
  await expect(page).toHaveURL(/\/onboarding\/choice$/);
  if (!confirm) return;
  await confirmAddress(page, account.email);
  await page.goto('/onboarding/choice');
}

/** Fills and sends the login form on the page it is on. */
export async function logIn(page: Page, email: string, password: string) {
  const form = page.getByRole('form', { name: 'Login' });
  await form.getByLabel('E-mail').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
}

/** The super admin the e2e server starts with, made by the admin command (playwright.config.ts). */
export const E2E_ADMIN = { username: 'e2e_admin', email: 'admin@e2e.example.com', password: 'Passw0rd-e2e-admin' };
/** A second such super admin, for the console's actions (admin.spec.ts), so the specs do not share one. */
export const E2E_CONSOLE_ADMIN = {
  username: 'e2e_console',
  email: 'console@e2e.example.com',
  password: 'Passw0rd-e2e-console',
};
/** A third, for the small-screen sweep of the console (small-screens.spec.ts), which turns its two-factor on. */
export const E2E_SCREENS_ADMIN = {
  username: 'e2e_screens',
  email: 'screens@e2e.example.com',
  password: 'Passw0rd-e2e-screens',
};

/** An authenticator app's code for `secret`, `offsetSeconds` from now, by Debian's oathtool. */
export function totp(secret: string, offsetSeconds = 0): string {
  const at = new Date(Date.now() + offsetSeconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  return execFileSync('oathtool', ['--totp', '-b', '--now', at, secret], { encoding: 'utf8' }).trim();
}

/**
 * Turns two-factor on from the account page it is on (opening the setup unless the page opened it
 * itself, as after accepting an invitation); returns the secret and the backup codes.
 */
export async function enableTwoFactorOnAccountPage(page: Page, { open = true } = {}) {
  if (open) await page.getByRole('button', { name: 'Set up two-factor' }).click();
  const setup = page.getByTestId('mfa-setup-dialog');
  const secret = (await setup.getByTestId('mfa-secret').textContent())?.trim() ?? '';
  await setup.getByTestId('mfa-setup-code').fill(totp(secret));
  await setup.getByRole('button', { name: 'Verify and turn on' }).click();
  const codesDialog = page.getByRole('dialog', { name: 'Save your backup codes' });
  await expect(codesDialog).toBeVisible();
  const backupCodes = (await codesDialog.getByTestId('backup-codes').locator('p').allTextContents()).map((c) =>
    c.trim(),
  );
  return { secret, backupCodes, codesDialog };
}

/**
 * On the offline provider's test checkout page: checks it says it is a test, types a card of this
 * run's own (a card gets one trial, as a person does), then presses a button.
 */
export async function completeTestCheckout(
  page: Page,
  button: 'Pay' | 'Start trial' | 'Cancel' = 'Pay',
  shot?: string,
  card: string = freshCardNumber(),
) {
  await expect(page).toHaveURL(/\/api\/offline-checkout\/cs_offline_[0-9a-f]{24}$/);
  await expect(page.getByTestId('offline-checkout')).toContainText('Test checkout');
  await page.getByLabel(/another card number/i).fill(card);
  if (shot) await screenshot(page, shot);
  await page.getByRole('button', { name: button }).click();
}

let cardSerial = 0;

/** A well-formed card number nobody used before: the offline checkout's working card. */
const freshCardNumber = (): string =>
  withCheckDigit(`4${String(Date.now() % 1e9).padStart(9, '0')}${String(++cardSerial).padStart(5, '0')}`);

/** After a checkout: the success page, once the payment has reached the account. */
export async function expectPaymentConfirmed(page: Page, shot?: string) {
  await expect(page).toHaveURL(/\/dashboard\/plans\/success\?session_id=cs_offline_/);
  await expect(page.getByTestId('payment-transaction-id')).toHaveText(/^cs_offline_[0-9a-f]{24}$/);
  await expect(page.getByTestId('payment-success')).toHaveAttribute('data-state', 'confirmed', { timeout: 30_000 });
  if (shot) await screenshot(page, shot);
}

/** From the onboarding choice: pay now (15% off) for `plan`, monthly, through the test checkout. */
export async function payNowAtOnboarding(page: Page, plan: 'minimum' | 'pro' | 'virtuoso', shots = false) {
  await expect(page).toHaveURL(/\/onboarding\/choice$/);
  await page.getByRole('link', { name: 'Pay now and get 15% off' }).click();
  await expect(page).toHaveURL(/\/onboarding\/plans$/);
  await expect(page.getByTestId(`plan-card-${plan}`)).toBeVisible();
  if (shots) await screenshot(page, 'onboarding-plans');
  await page.getByTestId(`plan-button-${plan}`).click();
  await completeTestCheckout(page, 'Pay', shots ? 'offline-checkout-plan' : undefined);
  await expectPaymentConfirmed(page, shots ? 'payment-success' : undefined);
}

/** The purchase modal is open for a resource: buy its pack there, pay, and come back. */
export async function quickTopUp(page: Page, resource: RegExp, shot?: string) {
  await expect(page.getByRole('dialog', { name: 'Insufficient resources' })).toBeVisible();
  await expect(page.getByTestId('purchase-resource')).toContainText(resource);
  if (shot) await screenshot(page, shot);
  const back = page.url();
  await page.getByTestId('purchase-quick-topup').click();
  await completeTestCheckout(page);
  await expectPaymentConfirmed(page);
  await page.getByTestId('payment-continue').click();
  await expect(page).toHaveURL(back);
}

/**
 * Keyboard only: presses Tab (or Shift+Tab) until the element with this test id has the focus,
 * failing when it is not reached within `max` presses.
 */
export async function tabTo(page: Page, testId: string, { max = 40, back = false } = {}): Promise<void> {
  for (let press = 0; press < max; press++) {
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
    if (focused === testId) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${testId} was not reached with the keyboard in ${max} presses`);
}

/** Pastes `text` into the Convert editor as a person pastes plain text (markdown becomes blocks). */
export async function pasteIntoEditor(page: Page, text: string) {
  const editor = page.getByTestId('convert-editor');
  await editor.click();
  await editor.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}
