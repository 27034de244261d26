// A Voice from the browser, end to end on the tiny house model: pasted text plus a .docx and a
// .pdf (made here), the create form's counts, the progress page with the Rota game until the
// Voice is ready, waking it from the dashboard, publishing it, and forking it from a second
// account. Screenshots go to e2e/artifacts/ for review.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const artifactsDir = path.join(e2eDir, 'artifacts');
const screenshot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: true });

const corpus = readFileSync(path.join(e2eDir, '..', 'packages', 'engine', 'corpus', 'jargon.txt'), 'utf8');
/** About `chars` characters of real prose, from `at` (0..1) into the Jargon File. */
function prose(chars: number, at: number): string {
  const start = corpus.indexOf('\n\n', Math.floor(corpus.length * at)) + 2;
  return corpus.slice(start, corpus.indexOf('\n\n', start + chars));
}

async function makeDocx(text: string): Promise<Buffer> {
  const children = text.split(/\n{2,}/).map((p) => new Paragraph({ text: p.replace(/\s+/g, ' ') }));
  return Buffer.from(await Packer.toBuffer(new Document({ sections: [{ children }] })));
}

async function makePdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const lines = text
    .replace(/[^\x20-\x7e\n]/g, ' ')
    .split(/\n{2,}/)
    .flatMap((p) => [...(p.replace(/\s+/g, ' ').match(/.{1,80}(\s|$)/g) ?? []), '']);
  let page = doc.addPage([612, 792]);
  let y = 740;
  for (const line of lines) {
    if (y < 60) {
      page = doc.addPage([612, 792]);
      y = 740;
    }
    page.drawText(line.trim(), { x: 60, y, size: 11, font });
    y -= 15;
  }
  return Buffer.from(await doc.save());
}

const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const writer = { username: `writer_${runId}`, email: `writer-${runId}@example.com`, password: 'Corr3ct-Horse-Battery' };
const reader = { username: `reader_${runId}`, email: `reader-${runId}@example.com`, password: 'Corr3ct-Horse-Battery' };
const voiceName = `Jargon ${runId.slice(0, 6)}`;

async function register(page: Page, account: typeof writer) {
  await page.goto('/auth?tab=register');
  const form = page.getByRole('form', { name: 'Create account' });
  await form.getByLabel('Username').fill(account.username);
  await form.getByLabel('E-mail').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByLabel('Confirm password').fill(account.password);
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/onboarding\/choice$/);
}

const card = (page: Page) => page.getByTestId('voice-card').filter({ hasText: voiceName });

test.describe
  .serial('Voices', () => {
    test('create a Voice from pasted text, a .docx and a .pdf, and watch it train to ready', async ({ page }) => {
      test.setTimeout(600_000);
      await register(page, writer);
      await page.goto('/dashboard/create');
      const form = page.getByTestId('create-voice-form');
      await expect(form).toBeVisible();
      await expect(page.getByTestId('create-voice-submit')).toBeDisabled();

      // The name box drops what a name cannot hold as it is typed.
      await page.getByTestId('create-voice-name').fill(`${voiceName}!?`);
      await expect(page.getByTestId('create-voice-name')).toHaveValue(voiceName);
      await page.getByTestId('create-voice-text').fill(prose(9_000, 0.3));

      await page.locator('input[type="file"]').setInputFiles([
        { name: 'letters.docx', mimeType: 'application/octet-stream', buffer: await makeDocx(prose(7_000, 0.5)) },
        { name: 'talk.pdf', mimeType: 'application/pdf', buffer: await makePdf(prose(7_000, 0.65)) },
      ]);
      // Each file shows the characters the server extracted from it.
      await expect(page.getByTestId('file-row')).toHaveCount(2);
      for (const row of await page.getByTestId('file-row').all()) {
        await expect(row.getByTestId('file-characters')).toContainText(/\d,\d{3}/);
      }
      await expect(page.getByTestId('create-voice-submit')).toBeEnabled();
      await expect(page.getByTestId('create-voice-total')).toContainText('20,000');
      await screenshot(page, 'create-voice-form');

      await page.getByTestId('create-voice-submit').click();
      await expect(page).toHaveURL(/\/dashboard\/loras\/[0-9a-f]{24}\/training$/, { timeout: 30_000 });
      await expect(page.getByTestId('training-progress')).toBeVisible();
      await expect(page.getByRole('heading', { name: /Rota/ })).toBeVisible();
      // Polled every 5 s: the stage moves on from the queue into training.
      await expect(page.getByTestId('training-stage')).not.toHaveText(/Waiting/, { timeout: 120_000 });
      await expect(page.getByTestId('training-progress')).toBeVisible();
      await screenshot(page, 'training-progress');

      await expect(page.getByTestId('training-done')).toBeVisible({ timeout: 540_000 });
      await screenshot(page, 'training-done');
    });

    test('wake the Voice from the dashboard, see it awake, read its evaluation and publish it', async ({ page }) => {
      await page.goto('/auth?tab=login');
      const login = page.getByRole('form', { name: 'Login' });
      await login.getByLabel('E-mail').fill(writer.email);
      await login.getByLabel('Password', { exact: true }).fill(writer.password);
      await login.getByRole('button', { name: 'Log in' }).click();
      await expect(page).toHaveURL(/\/dashboard$/);

      await expect(card(page)).toHaveAttribute('data-status', 'ready');
      await expect(card(page).getByTestId('voice-status')).toHaveText('asleep');
      await card(page).getByRole('button', { name: 'Wake Up' }).click();
      await expect(card(page)).toHaveAttribute('data-status', 'active', { timeout: 30_000 });
      await expect(card(page).getByTestId('voice-status')).toHaveText('awake');
      await expect(card(page).getByRole('link', { name: 'Convert' })).toBeVisible();
      await screenshot(page, 'dashboard-awake');

      await card(page).getByTestId('voice-menu').click();
      await page.getByRole('menuitem', { name: 'Make Public' }).click();
      await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Make Public' }).click();
      await expect(card(page).getByTestId('voice-public')).toBeVisible();

      await card(page).getByTestId('voice-name').click();
      await expect(page).toHaveURL(/\/dashboard\/loras\/[0-9a-f]{24}$/);
      await expect(page.getByTestId('evaluation-chart')).toBeVisible();
      await screenshot(page, 'voice-details');
    });

    test('fork the public Voice from a second account', async ({ page }) => {
      await register(page, reader);
      await page.goto('/dashboard/public-loras');
      const publicCard = page.getByTestId('public-voice-card').filter({ hasText: voiceName });
      await expect(publicCard).toContainText(writer.username);
      await screenshot(page, 'public-voices');
      await publicCard.getByRole('button', { name: 'Fork' }).click();
      await expect(page.getByText('LoRA forked successfully!')).toBeVisible();

      await page.goto('/dashboard');
      await expect(card(page)).toHaveAttribute('data-status', 'ready');
      await expect(card(page).getByTestId('voice-public')).toHaveCount(0);
    });
  });
