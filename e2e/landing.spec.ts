// The landing page as a visitor sees it at desktop and phone widths: the demo video of the real
// product loads, a real Voice's measured evaluation on the real model shows, the FAQ opens, and
// the ways in lead to sign-up or back to the dashboard. Screenshots go to e2e/artifacts/ for review.
import type { Page } from '@playwright/test';
import { expect, registerThroughForm, runId, screenshot, test } from './support';

/** The demo video's duration in seconds, once the browser has read its metadata. */
async function videoDuration(page: Page): Promise<number> {
  return page.getByTestId('landing-demo-video').evaluate(
    (video: HTMLVideoElement) =>
      new Promise<number>((resolve, reject) => {
        if (video.readyState >= HTMLMediaElement.HAVE_METADATA) resolve(video.duration);
        video.addEventListener('loadedmetadata', () => resolve(video.duration), { once: true });
        video.addEventListener('error', () => reject(new Error(`video error ${video.error?.code}`)), { once: true });
      }),
  );
}

test('at 1280 px: the demo video plays the real recording, the evidence and the FAQ are there', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute(
    'href',
    '/auth?tab=register&redirect=%2Fonboarding%2Fplans',
  );
  await expect(page.getByRole('link', { name: 'Create your account' })).toHaveAttribute(
    'href',
    '/auth?tab=register&redirect=%2Fonboarding%2Fplans',
  );

  const video = page.getByTestId('landing-demo-video');
  await expect(video).toHaveAttribute('controls', '');
  await expect(video).toHaveAttribute('playsinline', '');
  await expect(video).toHaveAttribute('poster', '/demo/convert-demo-poster.jpg');
  expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
  expect(await videoDuration(page)).toBeGreaterThan(0);
  await expect(page.getByTestId('landing-demo-caption')).toContainText('small house model');
  const poster = await page.request.get('/demo/convert-demo-poster.jpg');
  expect(poster.headers()['content-type']).toContain('image/jpeg');

  // A real Voice's evaluation on the real model, named, drawn by the chart the Voice details page
  // uses, with one of its held-out samples.
  const evidence = page.getByTestId('landing-evidence');
  await expect(evidence.getByTestId('evaluation-chart')).toBeVisible();
  await expect(evidence.getByTestId('landing-evidence-provenance')).toContainText('SmolLM2-135M-Instruct');
  await expect(evidence.getByTestId('landing-evidence-provenance')).toContainText('Moby-Dick');
  await expect(evidence.getByTestId('evaluation-reads-as')).toContainText('Base model');
  await expect(evidence.getByTestId('evaluation-perplexity')).toContainText('The Voice');
  await expect(evidence.getByTestId('evaluation-similarity')).toContainText('Plain text');
  await expect(evidence.getByTestId('evaluation-sample')).toHaveCount(1);
  await expect(evidence.getByTestId('evaluation-sample')).toContainText('What Melville wrote');
  await expect(evidence).toContainText('Burrows’ Delta');

  // Every question opens to its answer.
  const faq = page.getByTestId('landing-faq');
  const items = faq.locator('[data-testid^="faq-"]');
  expect(await items.count()).toBeGreaterThanOrEqual(5);
  // Several may stay open at once, so each answer is checked open after the others.
  for (const item of await items.all()) {
    const control = item.getByRole('button');
    await control.click();
    await expect(control).toHaveAttribute('aria-expanded', 'true');
    await expect(item.getByRole('region')).toBeVisible();
  }
  await expect(page.getByTestId('faq-writing')).toContainText('At least 20,000 characters');
  await expect(page.getByTestId('faq-privacy')).toContainText('private by default');
  await expect(page.getByTestId('faq-plans')).toContainText('Cancel any time');
  await expect(page.getByTestId('faq-offline').getByRole('link', { name: 'Download the offline app' })).toHaveAttribute(
    'href',
    '/download',
  );
  await screenshot(page, 'landing-1280');
});

test('at 390 px: nothing runs off the side and the video fits the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await expect(page.getByTestId('landing-evidence').getByTestId('evaluation-chart')).toBeVisible();
  expect(await videoDuration(page)).toBeGreaterThan(0);
  const box = await page.getByTestId('landing-demo-video').boundingBox();
  expect(box?.width).toBeLessThanOrEqual(390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await screenshot(page, 'landing-390');
});

test('signed in, the landing page offers the dashboard instead of sign-up', async ({ page }) => {
  await registerThroughForm(page, {
    username: `landing_${runId}`,
    email: `landing-${runId}@example.com`,
    password: 'Passw0rd-e2e',
  });
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Go to Dashboard' })).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Create your account' })).toHaveCount(0);
});
