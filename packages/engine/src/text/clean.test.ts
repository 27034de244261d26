import { describe, expect, it } from 'vitest';
import { tabRun } from '../test/hostile-files.js';
import { cleanExtracted, cleanText, countChars } from './clean.js';

describe('cleanText', () => {
  it('turns CRLF and CR into LF and keeps one blank line between paragraphs', () => {
    expect(cleanText('One.\r\nTwo.\r\n\r\n\r\n\r\nThree.\rFour.')).toBe('One.\nTwo.\n\nThree.\nFour.');
  });

  it('normalises to NFC', () => {
    expect(cleanText('cafe\u0301')).toBe('café');
    expect(cleanText('cafe\u0301')).toHaveLength(4);
  });

  it('removes control characters but keeps tabs and line feeds', () => {
    expect(cleanText('a\u0000b\u0007c\u001Bd\u007Fe\u0085f\tg\nh')).toBe('abcde\nf\tg\nh');
    expect(cleanText('page one\fpage two')).toBe('page one\n\npage two');
  });

  it('strips zero-width characters and soft hyphens but keeps joiners inside emoji', () => {
    expect(cleanText('\uFEFFzero\u200Bwidth wo\u2060rd soft\u00ADhyphen')).toBe('zerowidth word softhyphen');
    expect(cleanText('family 👨\u200D👩\u200D👧')).toBe('family 👨\u200D👩\u200D👧');
  });

  it('joins words hyphenated across line breaks and leaves real hyphens', () => {
    expect(cleanText('an exam-\nple of hyphen-\n  ation, a well-known\nFrench-\nSpeaker')).toBe(
      'an example of hyphenation, a well-known\nFrench-\nSpeaker',
    );
    expect(cleanText('broken soft\u00AD\nhyphen')).toBe('broken softhyphen');
  });

  it('collapses runs of spaces, Unicode spaces included, and trims lines and the text', () => {
    expect(cleanText('  Too   many\u00A0\u00A0spaces  \n   here\u3000too.  \n\n \t \n\nNext.  ')).toBe(
      'Too many spaces\nhere too.\n\nNext.',
    );
  });

  it('keeps single line breaks unless asked to unwrap them, and paragraphs either way', () => {
    const text = 'A line\nwrapped here.\n\nNew para-\ngraph\nhere.';
    expect(cleanText(text)).toBe('A line\nwrapped here.\n\nNew paragraph\nhere.');
    expect(cleanText(text, { unwrapLines: true })).toBe('A line wrapped here.\n\nNew paragraph here.');
    expect(cleanExtracted({ text, format: 'pdf' })).toBe('A line wrapped here.\n\nNew paragraph here.');
    expect(cleanExtracted({ text, format: 'txt' })).toBe(cleanText(text));
  });

  it('takes linear time on long runs of spaces and tabs, at line ends or not', () => {
    const started = performance.now();
    expect(cleanText(tabRun(200_000))).toBe(tabRun(200_000));
    expect(cleanText(`x${' \t'.repeat(100_000)}y`)).toBe(`x${' \t'.repeat(100_000)}y`);
    expect(cleanText(`x${'\t'.repeat(200_000)}\n${'\t'.repeat(200_000)}y`)).toBe('x\ny');
    expect(cleanText(`x\u00AD${'\t'.repeat(200_000)}y`)).toBe(`x${'\t'.repeat(200_000)}y`);
    // Quadratic patterns took tens of seconds here.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('is idempotent', () => {
    const once = cleanText(' x\r\n\r\n\r\ny-\nz\u200B  w\u0301 ');
    expect(cleanText(once)).toBe(once);
  });
});

describe('countChars', () => {
  it('counts code points, so an emoji is one character', () => {
    expect(countChars('abc')).toBe(3);
    expect(countChars('😀é')).toBe(2);
    expect(countChars('')).toBe(0);
  });
});
