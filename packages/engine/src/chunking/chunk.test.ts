import { stitch } from '@ownvoice/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChunkedText, chunkText } from './chunk.js';

/** Every promise of chunkText's contract, checked on one result. */
function expectContract(text: string, maxChars: number, { chunks, separators }: ChunkedText): void {
  expect(separators).toHaveLength(chunks.length + 1);
  let at = 0;
  chunks.forEach((c, i) => {
    expect(c.index).toBe(i);
    expect(c.start).toBeGreaterThanOrEqual(at);
    expect(c.end).toBeGreaterThan(c.start);
    expect(c.text).toBe(text.slice(c.start, c.end));
    expect(separators[i]).toBe(text.slice(at, c.start));
    expect(c.text).toMatch(/^\S(?:[\s\S]*\S)?$/u);
    // Longer than max only when it cannot be cut: a single code point.
    if (c.text.length > maxChars) expect([...c.text]).toHaveLength(1);
    at = c.end;
  });
  expect(separators.at(-1)).toBe(text.slice(at));
  for (const s of separators) expect(s).toMatch(/^\s*$/);
  expect(
    stitch(
      chunks.map((c) => c.text),
      separators,
    ),
  ).toBe(text);
}

describe('chunkText', () => {
  it('keeps a text that fits as one chunk, with its outer whitespace as separators', () => {
    const text = '\r\n  Hello there.\n\nSecond paragraph.  \n';
    const result = chunkText(text, { maxChars: 100 });
    expect(result.chunks.map((c) => c.text)).toEqual(['Hello there.\n\nSecond paragraph.']);
    expect(result.separators).toEqual(['\r\n  ', '  \n']);
    expectContract(text, 100, result);
  });

  it('gives no chunks for empty or whitespace-only text', () => {
    expect(chunkText('', { maxChars: 10 })).toEqual({ chunks: [], separators: [''] });
    expect(chunkText(' \n\t ', { maxChars: 10 })).toEqual({ chunks: [], separators: [' \n\t '] });
  });

  it('splits at paragraph breaks before sentences, and at sentences before words', () => {
    const p1 = 'The first paragraph is short.';
    const p2 = 'The second one has two sentences. Both of them are here.';
    const text = `${p1}\n\n${p2}`;
    expect(chunkText(text, { maxChars: 60 }).chunks.map((c) => c.text)).toEqual([p1, p2]);
    expect(chunkText(text, { maxChars: 40 }).chunks.map((c) => c.text)).toEqual([
      p1,
      'The second one has two sentences.',
      'Both of them are here.',
    ]);
    const words = chunkText('one two three four five six seven eight', { maxChars: 12 }).chunks.map((c) => c.text);
    expect(words.join(' ')).toBe('one two three four five six seven eight');
    for (const w of words) expect(w.length).toBeLessThanOrEqual(12);
  });

  it('does not split after an abbreviation such as Mr.', () => {
    const text = 'Mr. Smith arrived early today. Dr. Jones came much later on.';
    expect(chunkText(text, { maxChars: 35 }).chunks.map((c) => c.text)).toEqual([
      'Mr. Smith arrived early today.',
      'Dr. Jones came much later on.',
    ]);
  });

  it('keeps Markdown headings and list items whole, and a heading with its text', () => {
    const text = [
      '# Packing list',
      'What to bring on the trip:',
      '- a warm coat for the evenings',
      '- two pairs of walking boots',
      '- a map of the northern hills',
      '',
      '## Getting there',
      '',
      'Take the early train from the city.',
    ].join('\n');
    const chunks = chunkText(text, { maxChars: 70 }).chunks.map((c) => c.text);
    expect(chunks).toHaveLength(4);
    expect(chunks[0]).toBe('# Packing list\nWhat to bring on the trip:');
    expect(chunks[3]).toBe('## Getting there\n\nTake the early train from the city.');
    // The three items fill two chunks, each item whole.
    expect(chunks.slice(1, 3).flatMap((c) => c.split('\n'))).toEqual([
      '- a warm coat for the evenings',
      '- two pairs of walking boots',
      '- a map of the northern hills',
    ]);
  });

  it('keeps a long list item whole rather than its marker apart from its words', () => {
    const text = '- alpha beta gamma delta\n- epsilon zeta eta theta';
    const chunks = chunkText(text, { maxChars: 12 }).chunks.map((c) => c.text);
    expect(chunks.filter((c) => /^[-*]$/.test(c))).toEqual([]);
    expect(chunks[0]?.startsWith('- alpha')).toBe(true);
  });

  it('cuts text without spaces at word or grapheme boundaries, never inside an emoji', () => {
    const cjk = '東京に行きました。大阪にも行った。京都はとても美しい町でした。';
    for (const c of chunkText(cjk, { maxChars: 10 }).chunks) expect(c.text.length).toBeLessThanOrEqual(10);
    const emoji = '👨‍👩‍👧👍🏽😀'.repeat(4);
    const { chunks } = chunkText(emoji, { maxChars: 9 });
    const graphemes = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(emoji)].map((s) => s.segment);
    for (const c of chunks) {
      const inner = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(c.text)].map((s) => s.segment);
      for (const g of inner) expect(graphemes).toContain(g);
    }
  });

  it('finds sentence ends throughout a paragraph far longer than one segmentation window', () => {
    const sentences = Array.from({ length: 400 }, (_, i) => `Sentence ${i} is short, and it ends here.`);
    const text = sentences.join(' ');
    const { chunks } = chunkText(text, { maxChars: 200 });
    expect(chunks.map((c) => c.text).join(' ')).toBe(text);
    for (const c of chunks) expect(c.text).toMatch(/^Sentence \d+ .*here\.$/);
  });

  it('chunks long runs without spaces in linear time', () => {
    const started = performance.now();
    const blob = 'x'.repeat(100_000);
    expect(chunkText(blob, { maxChars: 1000 }).chunks.map((c) => c.text.length)).toEqual(Array(100).fill(1000));
    const cjk = '東京に行きました大阪にも行った'.repeat(3000);
    const { chunks } = chunkText(cjk, { maxChars: 1000 });
    expect(chunks.map((c) => c.text).join('')).toBe(cjk);
    const emoji = '👍🏽é'.repeat(20_000);
    expect(chunkText(emoji, { maxChars: 1000 }).chunks.every((c) => c.text.length <= 1000)).toBe(true);
    // Segmenting such runs whole took tens of seconds (quadratic); windowed, well under one.
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('lets rewritten chunks go back into the original layout', () => {
    const text = 'First part here.\r\n\r\n  Second part here.\n\n\tThird part.';
    const { chunks, separators } = chunkText(text, { maxChars: 20 });
    expect(chunks).toHaveLength(3);
    expect(stitch(['A.', 'B.', 'C.'], separators)).toBe('A.\r\n\r\n  B.\n\n\tC.');
    expect(() => stitch(['A.'], separators)).toThrow(RangeError);
  });

  it('rejects a maxChars that is not a positive integer', () => {
    expect(() => chunkText('x', { maxChars: 0 })).toThrow(RangeError);
    expect(() => chunkText('x', { maxChars: 2.5 })).toThrow(RangeError);
  });

  it('tiles any text and stitches it back losslessly (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom(' ', '  ', '\n', '\r\n', '\n\n', '\r\n\r\n', '\t', '\r', '\u2029', '\u00A0', '. ', '! ', '? '),
      fc.constantFrom('# ', '## ', '- ', '* ', '1. ', '> ', 'Mr. ', 'e.g. '),
      fc.constantFrom('😀', '👨‍👩‍👧', '👍🏽', '🇫🇷', 'e\u0301', '東京', '。', '\u200B', '\uD800'),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.constantFrom('word', 'another', 'sentence.', 'End.', 'Ünïcödé', 'x'),
    );
    const text = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 48 }), (t, maxChars) => {
        expectContract(t, maxChars, chunkText(t, { maxChars }));
      }),
      { numRuns: 400 },
    );
  });
});
