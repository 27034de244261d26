import { describe, expect, it } from 'vitest';
import { joinWrappedLines, plainParagraphs } from './wrapped-lines';

describe('joinWrappedLines', () => {
  it('joins the wrapped lines of each paragraph; blank lines still part paragraphs', () => {
    const mail = [
      'Dear committee,',
      '',
      'The spring fair moves to the school field this year, where there is more',
      'room for stalls and the cake stall can stay by the main door.',
      '',
      'Volunteers arrive by eight to set up the',
      'tables.',
    ].join('\r\n');
    expect(joinWrappedLines(mail)).toBe(
      [
        'Dear committee,',
        '',
        'The spring fair moves to the school field this year, where there is more room for stalls and the cake stall can stay by the main door.',
        '',
        'Volunteers arrive by eight to set up the tables.',
      ].join('\n'),
    );
  });

  it('keeps the breaks of lists, headings, quotes and tables', () => {
    const text = [
      '# Spring fair',
      'What changes:',
      '- Parking moves',
      '- Gates open at nine',
      '1. first',
      '2) second',
      '> quoted line one',
      '> quoted line two',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
    ].join('\n');
    expect(joinWrappedLines(text)).toBe(text);
  });

  it('keeps every line of a code fence as it is', () => {
    const text = ['Run this:', '```', 'const a = 1;', 'const b = 2;', '```', 'and then', 'wait.'].join('\n');
    expect(joinWrappedLines(text)).toBe(
      ['Run this:', '```', 'const a = 1;', 'const b = 2;', '```', 'and then wait.'].join('\n'),
    );
  });

  it('keeps the break after a line ending in two spaces or a backslash', () => {
    expect(joinWrappedLines('12 High Street  \nLeeds\\\nLS1 4AB\nEngland')).toBe(
      '12 High Street  \nLeeds\\\nLS1 4AB England',
    );
  });

  it('keeps setext underlines and rules on their own lines', () => {
    expect(joinWrappedLines('Title\n=====\nText that\nwraps\n\n---\nMore')).toBe(
      'Title\n=====\nText that wraps\n\n---\nMore',
    );
  });

  it('leaves text without wrapped lines alone', () => {
    expect(joinWrappedLines('One line.')).toBe('One line.');
    expect(joinWrappedLines('')).toBe('');
  });
});

describe('plainParagraphs', () => {
  it('gives one paragraph per block, with the lines that kept their break and without their marks', () => {
    const joined = joinWrappedLines(
      'Dear Sam,\n\nThe fair moves\nto the field.\n\n12 High Street  \nLeeds\\\nLS1 4AB\n\n\n',
    );
    expect(plainParagraphs(joined)).toEqual([
      ['Dear Sam,'],
      ['The fair moves to the field.'],
      ['12 High Street', 'Leeds', 'LS1 4AB'],
    ]);
  });
});
