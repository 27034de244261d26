// Uploads made to hurt the server: compression bombs in each format, a book listing one chapter
// thousands of times, markdown and text that make parsers or patterns quadratic, and whitespace
// passed off as writing. Each is refused (or read within its bounds) quickly with the product's
// message, nothing is charged, and the server stays up, responsive and small.

import {
  docxBomb,
  emphasisRun,
  epubBomb,
  epubRepeatedSpine,
  pdfBomb,
  tabRun,
} from '@ownvoice/engine/testing/hostile-files';
import { MIN_TRAINING_CHARS, VOICE_MESSAGES } from '@ownvoice/shared';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestClient, type TestContext } from '../../test/test-app.js';
import { writingSample } from '../../test/writing.js';

const GB = 1024 * 1024 * 1024;

let ctx: TestContext;
let client: TestClient;
beforeAll(async () => {
  ctx = await createTestContext();
  client = ctx.client();
  await client.register();
});
afterAll(() => ctx.close());

// Memory of this process (the server runs in it) before each test; it must not balloon.
let rssBefore = 0;
beforeEach(() => {
  rssBefore = process.memoryUsage.rss();
});
afterEach(async () => {
  const started = performance.now();
  expect((await ctx.client().get('/api/health')).statusCode).toBe(200);
  expect(performance.now() - started).toBeLessThan(1_000);
  expect(process.memoryUsage.rss() - rssBefore).toBeLessThan(300 * 1024 * 1024);
});

const trainingsLeft = async () =>
  (await client.get('/api/auth/me'))
    .json()
    .user.usageLimits.modelsTrained.reduce((n: number, t: { amount: number }) => n + t.amount, 0);

async function count(name: string, data: Buffer | string) {
  const started = performance.now();
  const res = await client.upload('/api/loras/count-characters', { files: [{ field: 'file', name, data }] });
  return { res, ms: performance.now() - started };
}

describe('hostile files sent to count-characters', () => {
  it('refuses a PDF whose content stream inflates to 1.5 GB, within seconds', async () => {
    const { res, ms } = await count('bomb.pdf', await pdfBomb(1.5 * GB));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', msg: VOICE_MESSAGES.readError });
    expect(ms).toBeLessThan(10_000);
  });

  it('refuses a Word document, an EPUB and a PDF bomb sent at once', async () => {
    // Two accounts: one may send two uploads at once.
    const other = ctx.client();
    await other.register();
    const started = performance.now();
    const results = await Promise.all([
      other.upload('/api/loras/count-characters', {
        files: [{ field: 'file', name: 'a.docx', data: docxBomb(1.5 * GB) }],
      }),
      client.upload('/api/loras/count-characters', {
        files: [{ field: 'file', name: 'b.epub', data: epubBomb(1.5 * GB) }],
      }),
      client.upload('/api/loras/count-characters', {
        files: [{ field: 'file', name: 'c.pdf', data: await pdfBomb(1.5 * GB) }],
      }),
    ]);
    expect(results.map((r) => [r.statusCode, r.json().msg])).toEqual([
      [400, VOICE_MESSAGES.readError],
      [400, VOICE_MESSAGES.readError],
      [400, VOICE_MESSAGES.readError],
    ]);
    expect(performance.now() - started).toBeLessThan(15_000);
  });

  it('reads a chapter an EPUB lists 6,000 times once', async () => {
    const { res, ms } = await count('book.epub', await epubRepeatedSpine(1024 * 1024, 6_000));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().characters).toBeGreaterThan(1_000_000);
    expect(res.json().characters).toBeLessThan(1_100_000);
    expect(ms).toBeLessThan(10_000);
  });

  it('stops markdown the parser takes quadratic time over, answering other requests meanwhile', async () => {
    const pending = count('stars.md', emphasisRun(80_000));
    // The health check after a moment answers at once: parsing is not on the server's thread.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const started = performance.now();
    expect((await ctx.client().get('/api/health')).statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    const { res, ms } = await pending;
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toBe(VOICE_MESSAGES.readError);
    expect(ms).toBeLessThan(15_000);
  });

  it('counts a text file of a 200,000-tab run quickly, as the three characters written', async () => {
    const { res, ms } = await count('tabs.txt', tabRun(200_000));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().characters).toBe(3);
    expect(ms).toBeLessThan(5_000);
  });
});

describe('hostile uploads sent to create a Voice', () => {
  it('refuses a Voice with a zip bomb among its files and charges nothing', async () => {
    const before = await trainingsLeft();
    const res = await client.upload('/api/loras', {
      fields: { name: 'Bomb', text: writingSample(21_000) },
      files: [{ name: 'bomb.docx', data: docxBomb(1.5 * GB) }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().msg).toBe(VOICE_MESSAGES.readError);
    expect(await trainingsLeft()).toBe(before);
  });

  it('counts 100,000 tabs as one character, so they do not reach the minimum, quickly', async () => {
    const before = await trainingsLeft();
    const sample = writingSample(5_000);
    const started = performance.now();
    const res = await client.upload('/api/loras', {
      fields: { name: 'Tabs', text: `${sample} ${'\t'.repeat(100_000)} ${tabRun(100_000)}` },
    });
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(res.statusCode, res.body).toBe(400);
    const written = res.json().msg.match(/You currently have ([\d,]+) characters/)?.[1];
    expect(Number(written?.replaceAll(',', ''))).toBeLessThan(MIN_TRAINING_CHARS);
    expect(Number(written?.replaceAll(',', ''))).toBeLessThan(sample.length + 10);
    expect(await trainingsLeft()).toBe(before);
  });
});
