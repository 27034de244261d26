// The estimate of micromark's work: never below it where Markdown could hide work from a line-by-
// line reading, and far below the bounds for real writing.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { markdownHostile } from '../test/hostile-files.js';
import { MAX_MARKDOWN_BLOCK_WORK, MAX_MARKDOWN_DEPTH, MAX_MARKDOWN_INLINE_WORK } from './limits.js';
import { checkMarkdownWork, markdownWork } from './markdown-work.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Paragraphs remark finds in `markdown`, however deep in lists and quotes. */
function paragraphs(markdown: string): number {
  const count = (node: { type: string; children?: unknown[] }): number =>
    (node.type === 'paragraph' ? 1 : 0) +
    (node.children ?? []).reduce<number>((n, child) => n + count(child as typeof node), 0);
  return count(unified().use(remarkParse).use(remarkGfm).parse(markdown));
}

describe('markdownWork', () => {
  it("stays far below the bounds on this repository's own documents", () => {
    const docs = ['README.md', 'docs', 'docs/decisions'].flatMap((where) =>
      where.endsWith('.md')
        ? [path.join(REPO, where)]
        : readdirSync(path.join(REPO, where))
            .filter((f) => f.endsWith('.md'))
            .map((f) => path.join(REPO, where, f)),
    );
    expect(docs.length).toBeGreaterThan(20);
    for (const doc of docs) {
      const work = markdownWork(readFileSync(doc, 'utf8'));
      expect(work.inline, doc).toBeLessThan(MAX_MARKDOWN_INLINE_WORK / 10);
      expect(work.block, doc).toBeLessThan(MAX_MARKDOWN_BLOCK_WORK / 10);
      expect(work.depth, doc).toBeLessThan(10);
    }
  });

  it('splits a paragraph only where Markdown ends it, so lines it continues count as one paragraph', () => {
    const markers = 'x *a*a*a*a*a*a*a*a';
    const oneParagraph = `x\n${`${markers}\n`.repeat(100)}`;
    const whole = markdownWork(oneParagraph).inline;
    // Lines that look like list items but continue the paragraph: a list may interrupt a paragraph
    // only with a bullet or the number 1, with content, and indented less than four columns.
    const continued = [
      `x\n${`2. ${markers}\n`.repeat(100)}`,
      `x\n${`    - ${markers}\n`.repeat(100)}`,
      `x\n${`${markers}\n1.\n`.repeat(100)}`,
      `x\n${`${markers}\n\`\`\`a\`\n`.repeat(100)}`,
    ];
    for (const text of continued) {
      expect(paragraphs(text), text.slice(0, 40)).toBe(1);
      expect(markdownWork(text).inline, text.slice(0, 40)).toBeGreaterThanOrEqual(whole);
    }
    // Where each line is its own paragraph, the work is far less.
    const items = `x\n${`- ${markers}\n`.repeat(100)}`;
    expect(paragraphs(items)).toBe(101);
    expect(markdownWork(items).inline).toBeLessThan(whole / 50);
  });

  it('keeps lines indented four columns or more in the paragraph they may continue', () => {
    const markers = 'x *a*a*a*a*a*a*a*a';
    const whole = markdownWork(`x\n${`${markers}\n`.repeat(100)}`).inline;
    // After a list, a paragraph at the top closes its items: indented items go on the paragraph.
    // So do they after an item seen inside code or HTML, where it was no item at all.
    const continued = [
      `- a\n  - b\n\nx\n${`    - ${markers}\n`.repeat(100)}`,
      `\`\`\`\n- a\n  \`\`\`\n  x\n${`    - ${markers}\n`.repeat(100)}`,
      `<div>\n- a\n\n  x\n${`    - ${markers}\n`.repeat(100)}`,
    ];
    for (const text of continued) {
      expect(paragraphs(text), text.slice(0, 30)).toBeLessThanOrEqual(3);
      expect(markdownWork(text).inline, text.slice(0, 30)).toBeGreaterThanOrEqual(whole);
    }
  });

  it('charges each quote or list that closes for the document before it, not one that goes on', () => {
    const separate = (n: number) => markdownWork('> a\n\n'.repeat(n)).block;
    expect(separate(2_000)).toBeGreaterThan(3.9 * separate(1_000));
    expect(markdownWork('> a\n'.repeat(2_000)).block).toBe(0);
    expect(markdownWork('- a\n'.repeat(2_000)).block).toBe(0);
    // micromark ends lines at \r too.
    expect(markdownWork('> a\r\r'.repeat(1_000))).toEqual(markdownWork('> a\n\n'.repeat(1_000)));
  });

  it('counts lists continued by indentation only while they may be open', () => {
    const staircase = Array.from({ length: 12 }, (_, i) => `${' '.repeat(2 * i)}- step`).join('\n');
    expect(markdownWork(staircase).depth).toBe(12);
    expect(markdownWork(`text\n\n${' '.repeat(80)}indented code`).depth).toBe(0);
    expect(markdownWork(`${staircase}\n\ntext\n\n${' '.repeat(80)}indented code`).depth).toBe(12);
  });

  it('refuses each hostile shape by the bound it passes, and reads ordinary Markdown', () => {
    expect(() => checkMarkdownWork(markdownHostile.nestedEmphasis(80_000))).toThrow(/emphasis, link or code markers/);
    expect(() => checkMarkdownWork(markdownHostile.quotes(80_000))).toThrow(/more quotes and lists/);
    expect(() => checkMarkdownWork(markdownHostile.nestedLists(2 * MAX_MARKDOWN_DEPTH + 2))).toThrow(
      /nest more than 100 deep/,
    );
    // A heading, a quote and a list every 100 bytes: 500 of them (49 KB) take micromark 1 s on two
    // busy cores, 2,000 of them (196 KB) 6 s, past the time a file that size is given.
    const chapter =
      '## A chapter\n\nSome *emphasis*, a [link](https://example.com) and `code`.\n\n> A quote.\n\n- a\n- list\n\n';
    expect(() => checkMarkdownWork(chapter.repeat(500))).not.toThrow();
    expect(() => checkMarkdownWork(chapter.repeat(2_000))).toThrow(/more quotes and lists/);
  });
});
