// Records the landing page's demo on the real product: signs up, pays through the offline test
// checkout, trains a Voice on the house model from public-domain prose (the Jargon File), wakes it,
// then films only the Convert page while generic text is pasted and streams back in the Voice.
// Writes the raw video and a poster frame to DEMO_WORK_DIR; record.sh compresses the video and
// copies both into apps/web/public/demo/. (The landing page's evidence comes from a real Voice on
// the real model instead: e2e/demo/real-voice.sh.)
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { e2eDir, payNowAtOnboarding, prose, registerThroughForm, runId } from '../support';

const workDir = process.env.DEMO_WORK_DIR ?? path.join(e2eDir, 'artifacts', 'demo');
const VIEWPORT = { width: 1280, height: 720 };
const TRAINING_CHARS = 24_000;

/** What a visitor would paste: the kind of generic AI paragraph the product exists to rewrite. */
const GENERIC_TEXT = [
  'In today’s fast-paced world, staying organized is more important than ever. By leveraging the right tools and ' +
    'strategies, teams can streamline their workflows, boost productivity and unlock their full potential.',
  '',
  'Furthermore, clear communication fosters collaboration and helps everyone stay aligned with shared goals. ' +
    'Ultimately, investing in these practices is essential for long-term success.',
].join('\n');

test('record the Convert demo', async ({ browser, page }) => {
  const account = { username: `demo_${runId}`, email: `demo-${runId}@example.com`, password: 'Corr3ct-Horse-Battery' };
  await page.setViewportSize(VIEWPORT);
  await registerThroughForm(page, account);
  await payNowAtOnboarding(page, 'pro');

  await page.goto('/dashboard/create');
  await page.getByTestId('create-voice-name').fill('Jargon demo');
  await page.getByTestId('create-voice-text').fill(prose(TRAINING_CHARS, 0.3));
  await page.getByTestId('create-voice-submit').click();
  await expect(page).toHaveURL(/\/dashboard\/loras\/[0-9a-f]{24}\/training$/, { timeout: 30_000 });
  const voiceId = /loras\/([0-9a-f]{24})\//.exec(page.url())?.[1] ?? '';
  await expect(page.getByTestId('training-done')).toBeVisible({ timeout: 25 * 60_000 });

  mkdirSync(workDir, { recursive: true });

  await page.goto('/dashboard');
  const card = page.getByTestId('voice-card').filter({ hasText: 'Jargon demo' });
  await card.getByRole('button', { name: 'Wake Up' }).click();
  await expect(card).toHaveAttribute('data-status', 'active', { timeout: 5 * 60_000 });

  // Only the Convert session is filmed: a second context with the same sign-in.
  const filmed = await browser.newContext({
    storageState: await page.context().storageState(),
    viewport: VIEWPORT,
    recordVideo: { dir: workDir, size: VIEWPORT },
  });
  const convert = await filmed.newPage();
  await convert.goto(`/dashboard/convert?loraId=${voiceId}`);
  await expect(convert.getByTestId('convert-voice-select')).toHaveValue('Jargon demo');
  const editor = convert.getByTestId('convert-editor');
  await expect(editor).toBeVisible();
  await convert.waitForTimeout(1_500);
  // Pasted as a person pastes (the editor's own paste handling), without the jump a click's scroll makes.
  await editor.evaluate((element, text) => {
    element.focus({ preventScroll: true });
    const data = new DataTransfer();
    data.setData('text/plain', text);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, GENERIC_TEXT);
  await convert.waitForTimeout(800);
  // Then a smooth scroll that puts the Voice picker, the text and the output in the frame together.
  await convert.getByTestId('convert-voice-select').evaluate((element) => {
    window.scrollTo({ top: element.getBoundingClientRect().top + window.scrollY - 150, behavior: 'smooth' });
  });
  await convert.waitForTimeout(1_200);
  await convert.getByTestId('convert-submit').click();
  await expect(convert.getByTestId('convert-submit')).toHaveText(/Converting/);
  await expect(convert.getByTestId('convert-submit')).toHaveText('Convert', { timeout: 5 * 60_000 });
  expect((await convert.getByTestId('convert-output').inputValue()).length).toBeGreaterThan(0);
  await convert.waitForTimeout(2_500);
  await convert.screenshot({ path: path.join(workDir, 'poster.jpg'), type: 'jpeg', quality: 60 });
  const video = convert.video();
  await filmed.close();
  await video?.saveAs(path.join(workDir, 'raw.webm'));
});
