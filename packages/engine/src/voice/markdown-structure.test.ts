// The markdown a rewrite keeps: which parts of a line are structure, what the model reads of the
// prose, how the markup goes back onto a rewrite, and how a one-line piece streams. The whole,
// through rewriteText, is in rewrite-markdown.test.ts.
import { stitch } from '@ownvoice/shared';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../chunking/chunk.js';
import { proseBlocks, type TextRange } from './markdown-blocks.js';
import { inlineSpans, plainText, reapplySpans } from './markdown-inline.js';
import { type ChunkPart, escapeLineStart, OneLineWriter, planChunks } from './markdown-structure.js';

const whole = (text: string): TextRange[] => [{ start: 0, end: text.length }];

/** The prose of each block, its lines as the text has them. */
const blockTexts = (text: string): string[][] =>
  proseBlocks(text).map((b) => b.lines.map((l) => text.slice(l.start, l.end)));

/** A chunk's plan as strings: structure as it is, prose as {plain}. */
const show = (parts: ChunkPart[]): string[] => parts.map((p) => (typeof p === 'string' ? p : `{${p.plain}}`));

/** The plans of `text` cut in two chunks, the second starting at `second`, `gap` whitespace before it. */
const planTwo = (text: string, second: string, gap: number): string[][] | undefined => {
  const at = text.indexOf(second);
  return planChunks(text, [
    { start: 0, end: at - gap },
    { start: at, end: text.length },
  ])?.map(show);
};

/** The text a piece ends as when the model wrote `written`, in one go. */
const finish = (parts: ChunkPart[], model: (plain: string) => string): string =>
  parts
    .map((p) => {
      if (typeof p === 'string') return p;
      const writer = p.writer();
      return writer.push(model(p.plain)) + writer.end();
    })
    .join('');

describe('proseBlocks', () => {
  it('reads prefixes off and groups the lines that read as one', () => {
    const text = [
      '# Title #',
      'Under the title,',
      'hard-wrapped.',
      '',
      '- [ ] a task',
      '  going on',
      '  - nested',
      '12) twelfth',
      '> quoted',
      '> > deeper',
      '> > still',
    ].join('\n');
    expect(blockTexts(text)).toEqual([
      ['Title'],
      ['Under the title,', 'hard-wrapped.'],
      ['a task', 'going on'],
      ['nested'],
      ['twelfth'],
      ['quoted'],
      ['deeper', 'still'],
    ]);
  });

  it('keeps code, breaks, tables and HTML as structure', () => {
    const text = [
      'Intro.',
      '',
      '```js',
      '# not a heading',
      '```',
      '~~~',
      'tilde code',
      '~~~',
      '',
      '    indented code',
      '',
      '***',
      'Setext',
      '======',
      '| a | b |',
      '[ref]: https://example.com',
      '<div>',
      'inside html',
      '',
      'After.',
    ].join('\n');
    expect(blockTexts(text)).toEqual([['Intro.'], ['Setext'], ['After.']]);
  });

  it('reads indented paragraphs of a plain text as prose, not as code', () => {
    expect(blockTexts('\tOnce upon a time.\n\n\tThe end.')).toEqual([['Once upon a time.'], ['The end.']]);
    expect(blockTexts('# Doc\n\n\tcode here')).toEqual([['Doc']]);
  });

  it('reads a fence inside a list item, and the item after it', () => {
    const text = '- item\n\n  ```\n  - code\n  ```\n- next';
    expect(blockTexts(text)).toEqual([['item'], ['next']]);
  });
});

describe('inline markup', () => {
  const read = (text: string) => {
    const spans = inlineSpans(text, whole(text));
    return { spans, plain: plainText(text, whole(text)[0] as TextRange, spans) };
  };

  it('gives the model the words alone', () => {
    const text = 'Run `npm i`, read **[the *docs*](https://x.org/a_(b) "T")** or <https://y.org>, not ~~this~~ \\*.';
    const { spans, plain } = read(text);
    expect(plain).toBe('Run npm i, read the docs or https://y.org, not this *.');
    expect(spans.map((s) => s.kind)).toEqual(['code', 'emphasis', 'autolink', 'emphasis']);
    expect(spans[1]?.children.map((s) => text.slice(s.start, s.end))).toEqual([
      '[the *docs*](https://x.org/a_(b) "T")',
    ]);
  });

  it('leaves what is not markup as text', () => {
    for (const text of ['a * b * c', 'snake_case_name', '2*3', '[not a link]', '`unclosed', '**unclosed']) {
      const { plain } = read(text);
      expect(plain).toBe(text.replace('\\', ''));
    }
    expect(read('2*3*4').plain).toBe('234');
  });

  it('puts the markup back on the same words, in their new wording', () => {
    const text = 'Bring a **warm coat** and read [the guide](https://e.com/g) and `man lp`.';
    const spans = inlineSpans(text, whole(text));
    const back = (written: string) =>
      reapplySpans(text, written, spans)
        ?.map((p) => p.text)
        .join('');
    expect(back('Pack a warm coat; study the guide, then man lp!')).toBe(
      'Pack a **warm coat**; study [the guide](https://e.com/g), then `man lp`!',
    );
    // Case may change on emphasis and link text, never on code.
    expect(back('WARM COAT, THE GUIDE, man lp')).toBe('**WARM COAT**, [THE GUIDE](https://e.com/g), `man lp`');
    expect(back('warm coat, the guide, MAN LP')).toBeUndefined();
    // Emphasis whose words are gone is dropped; a lost link or code span loses the rewrite.
    expect(back('A jacket, the guide, man lp')).toBe('A jacket, [the guide](https://e.com/g), `man lp`');
    expect(back('A warm coat and man lp')).toBeUndefined();
    // In order: words before the previous span's do not count.
    expect(back('man lp, the guide, warm coat')).toBeUndefined();
  });

  it('keeps a code span inside emphasis whose other words are gone', () => {
    const text = 'Then **run `make` twice** now.';
    const spans = inlineSpans(text, whole(text));
    expect(
      reapplySpans(text, 'Then call make once.', spans)
        ?.map((p) => p.text)
        .join(''),
    ).toBe('Then call `make` once.');
  });

  it('reads hostile runs of markup in linear time', () => {
    const started = performance.now();
    for (const unit of ['[', '![', '*a ', '`', '_', '[](', '<a:', '**[`', '[x](<']) {
      const text = unit.repeat(Math.ceil(100_000 / unit.length));
      plainText(text, whole(text)[0] as TextRange, inlineSpans(text, whole(text)));
    }
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('planChunks', () => {
  it('gives a text without markdown back whole (null), however it is laid out', () => {
    const text = 'One line.\n\tIndented on.\n\nAnother 42.';
    expect(planChunks(text, whole(text))).toBeNull();
  });

  it('plans every chunk of a text with markdown, a plain one into its paragraphs', () => {
    const text = 'One line,\nwrapped.\n\nAnother.\n\n- item';
    expect(planTwo(text, '- item', 2)).toEqual([
      ['{One line,\nwrapped.}', '\n\n', '{Another.}'],
      ['- ', '{item}'],
    ]);
  });

  it('splits a chunk into structure and pieces of prose', () => {
    const text = '## Getting *there*\n\n- Take the `7:10` train\n  from the city.\n\n```\ncode\n```';
    expect(planChunks(text, whole(text))?.map(show)).toEqual([
      ['## ', '{Getting there}', '\n\n- ', '{Take the 7:10 train\nfrom the city.}', '\n\n```\ncode\n```'],
    ]);
  });

  it('keeps as structure a span over a chunk edge or a line break, and prose without letters', () => {
    const text = 'First **bold. Second** part.\n- ...\n\nA *wrapped\nspan* here.';
    expect(planTwo(text, 'Second', 1)).toEqual([
      ['{First}', ' **bold.'],
      ['Second** ', '{part.}', '\n- ...\n\n', '{A}', ' *wrapped\nspan* ', '{here.}'],
    ]);
  });

  it('lays a rewrite out over the lines of its piece, escaping would-be markers', () => {
    const text = '> one two three\n> four five six';
    const [parts] = planChunks(text, whole(text)) ?? [];
    expect(finish(parts as ChunkPart[], () => '1. alpha beta gamma - delta')).toBe(
      '> 1\\. alpha beta\n> gamma - delta',
    );
    expect(finish(parts as ChunkPart[], () => 'alpha beta - delta')).toBe('> alpha beta\n> \\- delta');
    // Fewer words than lines: the original stays.
    expect(finish(parts as ChunkPart[], () => 'alone')).toBe(text);
    const [heading] = planChunks('# Title', whole('# Title')) ?? [];
    expect(finish(heading as ChunkPart[], () => '  ')).toBe('# Title');
    expect(finish(heading as ChunkPart[], () => '# New\n title ')).toBe('# \\# New title');
  });

  it('plans a long block of many lines and spans in about linear time', () => {
    const text = `# Head\n\n${'*one\ntwo* `three` [four](https://x.org) five **six.** '.repeat(4000)}`;
    const started = performance.now();
    const { chunks, separators } = chunkText(text, { maxChars: 360 });
    const plans = planChunks(text, chunks) ?? [];
    expect(performance.now() - started).toBeLessThan(3000);
    // A model that writes its words back unchanged gives the text back.
    expect(
      stitch(
        plans.map((parts) => finish(parts, (plain) => plain)),
        separators,
      ),
    ).toBe(text);
  });
});

describe('OneLineWriter', () => {
  it('streams what laying the whole rewrite out at once gives, however the deltas fall', () => {
    const token = fc.constantFrom('word', ' ', '  ', '\n', '\t', '1', '12', '.', ')', '#', '-', '>', 'é', '😀');
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        (tokens, cuts, atLineStart) => {
          const written = tokens.join('');
          const words = written.split(/\s+/u).filter(Boolean).join(' ');
          const expected = words === '' ? 'orig' : atLineStart ? escapeLineStart(words) : words;
          const writer = new OneLineWriter('orig', atLineStart);
          let out = '';
          let at = 0;
          for (const cut of [...cuts.map((c) => c % (written.length + 1))].sort((a, b) => a - b)) {
            out += writer.push(written.slice(at, Math.max(at, cut)));
            at = Math.max(at, cut);
          }
          out += writer.push(written.slice(at)) + writer.end();
          expect(out).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});
