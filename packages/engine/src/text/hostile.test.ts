// Files made to hurt the reader: each is refused (or read within its bounds) quickly, while this
// process stays responsive and small, because extraction runs in bounded child processes. Files
// nested too deep, or Markdown its parser would take too long over, are refused before any parser
// sees them, by a bound that says so.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deepDocx,
  deepEpub,
  deepHtml,
  docxBomb,
  emphasisRun,
  epubBomb,
  epubRepeatedSpine,
  markdownHostile,
  pdfBomb,
  tabRun,
} from '../test/hostile-files.js';
import { TextExtractionError } from './errors.js';
import { extractText, extractTrainingText } from './extract.js';
import { EXTRACTOR_LIMITS, MAX_EPUB_SPINE_ITEMS, MAX_MARKDOWN_DEPTH, MAX_MARKUP_DEPTH } from './limits.js';

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

const NESTED_TOO_DEEP = new RegExp(`nest more than ${MAX_MARKUP_DEPTH} deep`);
const NESTED_LISTS_TOO_DEEP = new RegExp(`lists and quotes nest more than ${MAX_MARKDOWN_DEPTH} deep`);
const TOO_MANY_MARKERS = /more emphasis, link or code markers than the Markdown reader can pair in time/;
const TOO_MANY_CONTAINERS = /opens more quotes and lists, for its length, than the Markdown reader can close in time/;

/** Refused as UNREADABLE by the bound `reason` names, rather than by the reader's time or memory limits. */
async function expectRefusedBy(name: string, data: Buffer | string, reason: RegExp) {
  const error = await extractText({ name, data: Buffer.from(data) }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TextExtractionError);
  expect(error).toMatchObject({ code: 'UNREADABLE', fileName: name, message: expect.stringMatching(reason) });
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

  it('refuses a page nested 200,000 deep by its depth, before any parser builds it', async () => {
    // Unbounded, htmlparser2 and html-to-text took 12-17 s and then overflowed their stacks.
    await expectRefusedBy('deep.html', deepHtml(200_000), NESTED_TOO_DEEP);
  });

  it('refuses EPUBs and Word documents nested past the bound, in a chapter, the package file or the body', async () => {
    await expectRefusedBy('chapter.epub', deepEpub(200_000), NESTED_TOO_DEEP);
    await expectRefusedBy('package.epub', deepEpub(200_000, 'package'), NESTED_TOO_DEEP);
    await expectRefusedBy('deep.docx', deepDocx(20_000), NESTED_TOO_DEEP);
  });

  it('reads documents nested as deep as the bound allows', async () => {
    expect((await extractText({ name: 'deep.html', data: Buffer.from(deepHtml(MAX_MARKUP_DEPTH)) })).text).toBe('deep');
    expect((await extractText({ name: 'deep.docx', data: deepDocx(MAX_MARKUP_DEPTH) })).text.trim()).toBe('deep');
  });

  // 80 KB each (the backtick runs 200 KB). Unbounded, the 40,000 emphasis markers took 75 s, the
  // quotes and the nested lists past a minute, and each ran into the time limit; now each is
  // refused by its estimate.
  it.each([
    ['stars.md', emphasisRun(80_000), TOO_MANY_MARKERS],
    ['nested-emphasis.md', markdownHostile.nestedEmphasis(80_000), TOO_MANY_MARKERS],
    ['strikethrough.md', markdownHostile.strikethrough(80_000), TOO_MANY_MARKERS],
    ['closing-brackets.md', markdownHostile.closingBrackets(80_000), TOO_MANY_MARKERS],
    ['nested-labels.md', markdownHostile.nestedLabels(80_000), TOO_MANY_MARKERS],
    ['backticks.md', markdownHostile.backtickRuns(200_000), TOO_MANY_MARKERS],
    ['quotes.md', markdownHostile.quotes(80_000), TOO_MANY_CONTAINERS],
    ['nested-quotes.md', markdownHostile.nestedQuotes(80_000), NESTED_LISTS_TOO_DEEP],
    ['nested-lists.md', markdownHostile.nestedLists(80_000), NESTED_LISTS_TOO_DEEP],
  ])('refuses %s by the Markdown bound it passes, before the parser starts', async (name, markdown, reason) => {
    await expectRefusedBy(name, markdown, reason);
  });

  it('cleans a long run of tabs in linear time and counts it as one character', async () => {
    const started = performance.now();
    const read = await extractTrainingText({ name: 'tabs.txt', data: Buffer.from(tabRun(200_000)) });
    expect(read.text).toBe(tabRun(200_000));
    expect(read.characters).toBe(3);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('the readers over a run of hostile files', () => {
  // Every hostile file above, one after another: the readers' memory once each is done.
  const corpus: [string, () => Buffer | Promise<Buffer>][] = [
    ['bomb.pdf', () => pdfBomb(1.5 * GB)],
    ['bomb.docx', () => docxBomb(1.5 * GB)],
    ['honest.docx', () => docxBomb(1.5 * GB, 1.5 * GB)],
    ['bomb.epub', () => epubBomb(1.5 * GB)],
    ['book.epub', () => epubRepeatedSpine(1024 * 1024, 6_000)],
    ['long.epub', () => epubRepeatedSpine(100, MAX_EPUB_SPINE_ITEMS + 1)],
    ['tabs.txt', () => Buffer.from(tabRun(200_000))],
    ['deep.html', () => Buffer.from(deepHtml(200_000))],
    ['chapter.epub', () => deepEpub(200_000)],
    ['package.epub', () => deepEpub(200_000, 'package')],
    ['deep.docx', () => deepDocx(20_000)],
    ['stars.md', () => Buffer.from(emphasisRun(80_000))],
    ...Object.entries(markdownHostile).map(([kind, make]): [string, () => Buffer] => [
      `${kind}.md`,
      () => Buffer.from(make(80_000)),
    ]),
    ['paragraphs.html', () => Buffer.from('<p>a</p>'.repeat(1_200_000))],
  ];

  it.runIf(process.platform === 'linux')(
    'leave no reader holding more than 200 MB: a larger one is recycled, one past its heap killed',
    async () => {
      for (const [name, make] of corpus) {
        await extractText({ name, data: await make() }).catch(() => {});
        const largest = Math.max(0, ...(await readersResident()));
        expect(largest, name).toBeLessThan(EXTRACTOR_LIMITS.keepRssBytes);
      }
    },
  );
});

/** Resident bytes of each extraction reader this process started, once those it stopped are gone. */
async function readersResident(): Promise<number[]> {
  let resident = extractionReaders();
  // A reader that was killed or recycled may take a moment to exit.
  for (let tries = 0; tries < 100 && resident.some((r) => r >= EXTRACTOR_LIMITS.keepRssBytes); tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    resident = extractionReaders();
  }
  return resident;
}

function extractionReaders(): number[] {
  const resident: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid || !readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes('extract-child'))
        continue;
      const kb = /VmRSS:\s*(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, 'latin1'))?.[1];
      if (kb !== undefined) resident.push(Number(kb) * 1024);
    } catch {
      // It exited while being read.
    }
  }
  return resident;
}
