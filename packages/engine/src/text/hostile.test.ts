// Files made to hurt the reader: each is refused (or read within its bounds) quickly, while this
// process stays responsive and small, because extraction runs in bounded child processes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { docxBomb, emphasisRun, epubBomb, epubRepeatedSpine, pdfBomb, tabRun } from '../test/hostile-files.js';
import { TextExtractionError } from './errors.js';
import { extractText, extractTrainingText } from './extract.js';
import { MAX_EPUB_SPINE_ITEMS } from './limits.js';

const GB = 1024 * 1024 * 1024;

// The longest this process's event loop went without a turn, and how much its memory grew.
let longestStall = 0;
let ticker: NodeJS.Timeout;
let rssBefore = 0;
beforeEach(() => {
  longestStall = 0;
  let last = performance.now();
  ticker = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - last);
    last = now;
  }, 10);
  rssBefore = process.memoryUsage.rss();
});
afterEach(() => {
  clearInterval(ticker);
  expect(longestStall).toBeLessThan(1_000);
  expect(process.memoryUsage.rss() - rssBefore).toBeLessThan(300 * 1024 * 1024);
});

async function expectRefused(name: string, data: Buffer, withinMs: number) {
  const started = performance.now();
  const error = await extractText({ name, data }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TextExtractionError);
  expect(error).toMatchObject({ code: 'UNREADABLE', fileName: name });
  expect(performance.now() - started).toBeLessThan(withinMs);
}

describe('hostile files', () => {
  it('refuses a PDF whose content stream inflates to 1.5 GB', async () => {
    const pdf = await pdfBomb(1.5 * GB);
    expect(pdf.length).toBeLessThan(2 * 1024 * 1024);
    await expectRefused('bomb.pdf', pdf, 10_000);
  });

  it('refuses zip bombs in Word documents and EPUBs, whether or not they declare their size', async () => {
    await expectRefused('bomb.docx', docxBomb(1.5 * GB), 5_000);
    await expectRefused('honest.docx', docxBomb(1.5 * GB, 1.5 * GB), 5_000);
    await expectRefused('bomb.epub', epubBomb(1.5 * GB), 5_000);
  });

  it('refuses a file whose parse outgrows the memory of its reader, and reads the next file', async () => {
    // 1.2 million paragraphs: the document tree passes the extraction process's heap.
    await expectRefused('paragraphs.html', Buffer.from('<p>a</p>'.repeat(1_200_000)), 20_000);
    expect((await extractText({ name: 'ok.txt', data: Buffer.from('Still here.') })).text).toBe('Still here.');
  });

  it('reads a chapter its EPUB lists 6,000 times once, and refuses a spine past the limit', async () => {
    const started = performance.now();
    const book = await epubRepeatedSpine(1024 * 1024, 6_000);
    const { text } = await extractText({ name: 'book.epub', data: book });
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text.length).toBeLessThan(1_100_000);
    expect(performance.now() - started).toBeLessThan(10_000);
    await expectRefused('long.epub', await epubRepeatedSpine(100, MAX_EPUB_SPINE_ITEMS + 1), 5_000);
  });

  it('stops markdown that the parser takes quadratic time over at the time limit, off this thread', async () => {
    await expectRefused('stars.md', Buffer.from(emphasisRun(80_000)), 15_000);
  });

  it('cleans a long run of tabs in linear time and counts it as one character', async () => {
    const started = performance.now();
    const read = await extractTrainingText({ name: 'tabs.txt', data: Buffer.from(tabRun(200_000)) });
    expect(read.text).toBe(tabRun(200_000));
    expect(read.characters).toBe(3);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
