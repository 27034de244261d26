// Markdown through the one rewrite: the structure of the input comes back exactly (block prefixes,
// code blocks, code spans, link URLs, in order), only the prose is rewritten, and what a chunk
// streams adds up to its text. With a fake model that writes whatever a test says, and once on
// the house model.
import { chunkErrorMarker } from '@ownvoice/shared';
import fc from 'fast-check';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../chunking/chunk.js';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import type { GenerateOptions, TextGenerator } from '../runtime/text-generator.js';
import { VoiceEngine } from '../runtime/voice-engine.js';
import { planChunks } from './markdown-structure.js';
import { rewritePrompt } from './prompts.js';
import { type RewriteEvent, rewriteText, rewriteWhole } from './rewrite.js';

const PROMPT_HEAD = '### Plain text:\n';
const PROMPT_TAIL = '\n\n### In my voice:\n';

/** A model that writes `write(words it was given)`, a few characters per delta. */
class FakeModel implements TextGenerator {
  readonly plains: string[] = [];
  constructor(
    private readonly write: (plain: string, options: GenerateOptions) => string,
    private readonly deltaChars = 4,
  ) {}

  async complete(prompt: string, options: GenerateOptions = {}): Promise<string> {
    const plain = prompt.slice(PROMPT_HEAD.length, -PROMPT_TAIL.length);
    expect(prompt).toBe(rewritePrompt(plain));
    this.plains.push(plain);
    const out = this.write(plain, options);
    for (let i = 0; i < out.length; i += this.deltaChars) {
      options.onChunk?.(out.slice(i, i + this.deltaChars));
      await new Promise((resolve) => setImmediate(resolve));
    }
    return out;
  }

  chat(): Promise<string> {
    throw new Error('the rewrite never chats');
  }

  async countTokens(text: string): Promise<number> {
    return Math.ceil(text.length / 4);
  }
}

const accept = () => ({ ok: true }) as const;

const collect = async (events: AsyncIterable<RewriteEvent>) => {
  const out: RewriteEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
};

/** Each chunk's text as its events leave it (a reroll empties it). */
const streamed = (events: readonly RewriteEvent[]): string[] => {
  const texts: string[] = [];
  for (const e of events) {
    if (e.type === 'chunk_reroll') texts[e.chunkIndex] = '';
    else if (e.type === 'chunk') texts[e.chunkIndex] = (texts[e.chunkIndex] ?? '') + e.text;
  }
  return texts;
};

const DOC = [
  '# Packing for the hills',
  '',
  'Bring a **warm coat** and read [the guide](https://example.com/guide) before you go.',
  '',
  '- two pairs of boots',
  '- a map, printed with `lp -o fit map.pdf`',
  '',
  '```sh',
  'lp -o fit map.pdf',
  '```',
].join('\n');

const SYNONYMS: Record<string, string> = {
  Packing: 'Getting ready',
  Bring: 'Pack',
  read: 'study',
  boots: 'walking boots',
  printed: 'printed out',
};
const withSynonyms = (plain: string) => plain.replace(/\p{L}+/gu, (w) => SYNONYMS[w] ?? w);

describe('rewriteText on markdown, with a fake model', () => {
  it('rewrites only the prose, gives the model no markup, and keeps the structure exactly', async () => {
    const model = new FakeModel(withSynonyms);
    const events = await collect(rewriteText(model, DOC, { maxChars: 1000, judge: accept }));
    expect(model.plains).toEqual([
      'Packing for the hills',
      'Bring a warm coat and read the guide before you go.',
      'two pairs of boots',
      'a map, printed with lp -o fit map.pdf',
    ]);
    const expected = [
      '# Getting ready for the hills',
      '',
      'Pack a **warm coat** and study [the guide](https://example.com/guide) before you go.',
      '',
      '- two pairs of walking boots',
      '- a map, printed out with `lp -o fit map.pdf`',
      '',
      '```sh',
      'lp -o fit map.pdf',
      '```',
    ].join('\n');
    expect(streamed(events)).toEqual([expected]);
    // The heading's marker comes first, then the heading streams as the model writes it.
    expect(events.slice(1, 3)).toEqual([
      { type: 'chunk', chunkIndex: 0, text: '# ' },
      { type: 'chunk', chunkIndex: 0, text: 'Gett' },
    ]);
    expect(events.some((e) => e.type === 'chunk_reroll')).toBe(false);
  });

  it('drops emphasis whose words are gone, and keeps the original of a piece whose link or code is gone', async () => {
    const model = new FakeModel((plain) =>
      plain.replace('warm coat', 'heavy jacket').replace('fit map.pdf', 'map').replace('boots', 'shoes'),
    );
    const out = await rewriteWhole(model, DOC, { maxChars: 1000, judge: accept });
    expect(out.split('\n').slice(0, 6)).toEqual([
      '# Packing for the hills',
      '',
      'Bring a heavy jacket and read [the guide](https://example.com/guide) before you go.',
      '',
      '- two pairs of shoes',
      '- a map, printed with `lp -o fit map.pdf`',
    ]);
  });

  it('asks no model for a chunk that is only code', async () => {
    const model = new FakeModel((plain) => plain.toUpperCase());
    const text = `Some words first.\n\n\`\`\`\n${'code line;\n'.repeat(12)}\`\`\`\n\nSome words after.`;
    const { chunks } = chunkText(text, { maxChars: 60 });
    const out = await rewriteWhole(model, text, { maxChars: 60, judge: accept });
    expect(chunks.some((c) => !c.text.includes('words'))).toBe(true);
    expect(model.plains).toEqual(['Some words first.', 'Some words after.']);
    expect(out).toBe(
      text.replace('Some words first.', 'SOME WORDS FIRST.').replace('Some words after.', 'SOME WORDS AFTER.'),
    );
  });

  it('after a rejected piece, streams the chunk so far again before the next attempt', async () => {
    const model = new FakeModel((plain, options) => (options.seed ? `${plain}, again` : plain));
    let rejected = false;
    const judge = (original: string) => {
      if (original !== 'two pairs of boots' || rejected) return { ok: true } as const;
      rejected = true;
      return { ok: false, reason: 'forced' } as const;
    };
    const events = await collect(rewriteText(model, DOC, { maxChars: 1000, judge }));
    const reroll = events.findIndex((e) => e.type === 'chunk_reroll');
    expect(events[reroll]).toEqual({ type: 'chunk_reroll', chunkIndex: 0, reason: 'forced' });
    const before = streamed(events.slice(0, reroll))[0] as string;
    expect(before.endsWith('- two pairs of boots')).toBe(true);
    expect(events[reroll + 1]).toEqual({
      type: 'chunk',
      chunkIndex: 0,
      text: before.slice(0, -'two pairs of boots'.length),
    });
    expect(streamed(events)).toEqual([DOC.replace('two pairs of boots', 'two pairs of boots, again')]);
  });

  it('ends a chunk of markdown with its error marker when a piece runs out of attempts', async () => {
    const model = new FakeModel((plain) => plain);
    const judge = (original: string) =>
      original.startsWith('Bring') ? ({ ok: false, reason: 'forced' } as const) : ({ ok: true } as const);
    const events = await collect(rewriteText(model, DOC, { maxChars: 1000, maxAttempts: 2, judge }));
    expect(events.at(-1)).toEqual({ type: 'chunk', chunkIndex: 0, text: chunkErrorMarker(0, 'forced') });
    expect(streamed(events)).toEqual([chunkErrorMarker(0, 'forced')]);
  });

  it('keeps the words of a heading or a brief item that runs out of attempts, and goes on', async () => {
    const model = new FakeModel(withSynonyms);
    const judge = (original: string) =>
      original === 'Packing for the hills' || original === 'two pairs of boots'
        ? ({ ok: false, reason: 'forced' } as const)
        : ({ ok: true } as const);
    const events = await collect(rewriteText(model, DOC, { maxChars: 1000, maxAttempts: 2, judge }));
    const [text] = streamed(events);
    expect(text).toContain('# Packing for the hills\n');
    expect(text).toContain('- two pairs of boots\n');
    expect(text).toContain('Pack a **warm coat** and study');
    expect(text).not.toContain('[Error converting');
  });

  it('keeps the words of a heading whose every rewrite wanders off what it said', async () => {
    const model = new FakeModel((plain) => (plain === 'Packing for the hills' ? 'The city of angels' : plain));
    const events = await collect(rewriteText(model, DOC, { maxChars: 1000, maxAttempts: 2 }));
    expect(streamed(events)[0]).toContain('# Packing for the hills\n');
    expect(events).toContainEqual({ type: 'chunk_reroll', chunkIndex: 0, reason: 'it lost what the original says' });
  });

  it('rewrites plain text exactly as before: each chunk whole, as the model writes it', async () => {
    const text =
      '\n  The market opens at eight.\nFarmers bring bread.\n\nParking is free on Sundays.\n\tChildren enter for free.\n';
    const model = new FakeModel((plain) => ` ${plain.toUpperCase()}\n`);
    const { chunks } = chunkText(text, { maxChars: 60 });
    const events = await collect(rewriteText(model, text, { maxChars: 60, judge: accept }));
    expect(model.plains).toEqual(chunks.map((c) => c.text));
    expect(streamed(events)).toEqual(chunks.map((c) => ` ${c.text.toUpperCase()}\n`));
  });
});

// ---- The property: generated documents, a model writing anything ----

const WORDS = ['apple', 'river', 'stone', 'quiet', 'morning', 'yellow', 'train', 'garden', 'letter', 'north'];
// What a model might write, with things that would read as markup at the start of a line.
const FILLER = [...WORDS, 'Lantern', 'ok.', 'yes,', '#', '-', '1.', '2)', '>', '*', '+', '=', '_', '~'];
const URLS = ['https://example.com/a', 'https://example.org/b_c?d=1&e=(f)', 'mailto:me@example.com'];

const words = (min: number, max: number) =>
  fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max }).map((w) => w.join(' '));
const inline = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: words(1, 4) },
      { weight: 1, arbitrary: words(1, 3).map((w) => `**${w}**`) },
      { weight: 1, arbitrary: words(1, 3).map((w) => `*${w}*`) },
      { weight: 1, arbitrary: words(1, 2).map((w) => `~~${w}~~`) },
      { weight: 1, arbitrary: fc.constantFrom('npm install', 'x = 1', 'a_b', 'run()').map((c) => `\`${c}\``) },
      { weight: 1, arbitrary: fc.tuple(words(1, 3), fc.constantFrom(...URLS)).map(([t, u]) => `[${t}](${u})`) },
      { weight: 1, arbitrary: fc.tuple(words(0, 2), fc.constantFrom(...URLS)).map(([t, u]) => `![${t}](${u})`) },
      { weight: 1, arbitrary: fc.constantFrom('<https://example.net/x>', '<me@example.net>', '**[bold link](/b)**') },
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((bits) => bits.join(' '));
const lines = (max: number) => fc.array(inline, { minLength: 1, maxLength: max });
const block = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 6 }), inline).map(([depth, t]) => `${'#'.repeat(depth)} ${t}`),
  lines(3).map((l) => l.join('\n')),
  fc
    .array(fc.tuple(fc.constantFrom('- ', '- [ ] ', '- [x] ', '  - ', '* '), inline), { minLength: 1, maxLength: 4 })
    .map((items) => items.map(([marker, t]) => marker + t).join('\n')),
  lines(4).map((items) => items.map((t, i) => `${i + 1}. ${t}`).join('\n')),
  lines(3).map((l) => l.map((t) => `> ${t}`).join('\n')),
  fc
    .array(fc.constantFrom('# not a heading', '- not a list', 'const y = **z**;', '', '  `tick` [a](b)'), {
      minLength: 1,
      maxLength: 4,
    })
    .map((l) => ['```ts', ...l, '```'].join('\n')),
  fc.constant('---'),
);
const documents = fc
  .tuple(fc.constantFrom('', '\n'), fc.array(block, { minLength: 1, maxLength: 7 }), fc.constantFrom('', '\n'))
  .map(([before, blocks, after]) => before + blocks.join('\n\n') + after);
const styles = fc.record({
  mode: fc.constantFrom('same words', 'some words', 'any words'),
  filler: fc.array(fc.constantFrom(...FILLER), { maxLength: 12 }),
  every: fc.integer({ min: 2, max: 5 }),
});

/** What the fake model writes for `plain` in a style. */
function writeIn(style: { mode: string; filler: string[]; every: number }, plain: string): string {
  if (style.mode === 'any words') return style.filler.join(' ');
  if (style.mode === 'same words') return plain;
  return plain
    .split(/\s+/)
    .map((w, i) => (i % style.every === 0 ? (style.filler[i % Math.max(1, style.filler.length)] ?? w) : w))
    .join(' ');
}

interface MdNode {
  type: string;
  children?: MdNode[];
  value?: string;
  url?: string;
  depth?: number;
  ordered?: boolean | null;
  start?: number | null;
  checked?: boolean | null;
  lang?: string | null;
}

const parser = unified().use(remarkParse).use(remarkGfm);

/** The structure remark reads in a document: blocks, code, code spans and links, in order. */
function structure(markdown: string): string[] {
  const out: string[] = [];
  const walk = (node: MdNode) => {
    if (node.type === 'heading') out.push(`heading ${node.depth}`);
    else if (node.type === 'list') out.push(`list ${node.ordered} ${node.start}`);
    else if (node.type === 'listItem') out.push(`item ${node.checked}`);
    else if (node.type === 'code') out.push(`code ${node.lang} ${node.value}`);
    else if (node.type === 'inlineCode') out.push(`inline code ${node.value}`);
    else if (node.type === 'link' || node.type === 'image') out.push(`${node.type} ${node.url}`);
    else if (['paragraph', 'blockquote', 'thematicBreak'].includes(node.type)) out.push(node.type);
    for (const child of node.children ?? []) walk(child);
  };
  walk(parser.parse(markdown) as MdNode);
  return out;
}

// Indentation, quote markers, list markers with a task box, heading hashes.
const LINE_PREFIX = /^[ \t]*(?:>[ \t]*)*(?:(?:[-*+]|\d+[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)*(?:#{1,6}[ \t]+)?/;
const prefixes = (markdown: string) =>
  markdown.split('\n').map((line) => (LINE_PREFIX.exec(line) as RegExpExecArray)[0]);

describe('rewriteText on generated markdown (property)', () => {
  it('gives back exactly the structure of the input, whatever the model writes, however it streams', async () => {
    await fc.assert(
      fc.asyncProperty(documents, styles, fc.integer({ min: 30, max: 400 }), async (doc, style, maxChars) => {
        // A text without markdown is rewritten as it always was (the plain-text test above).
        fc.pre(planChunks(doc, chunkText(doc, { maxChars }).chunks) !== null);
        const model = new FakeModel((plain) => writeIn(style, plain), 3);
        const out = await rewriteWhole(model, doc, { maxChars, judge: accept });
        expect(prefixes(out)).toEqual(prefixes(doc));
        expect(structure(out)).toEqual(structure(doc));
        for (const plain of model.plains) {
          expect(plain).not.toMatch(/`|\]\(|\*\*|~~|not a heading|const y|^(?:#|[-*>] |\d+\. )/m);
        }
        // However the deltas fall, the text is the same.
        const whole = new FakeModel((plain) => writeIn(style, plain), 10_000);
        expect(await rewriteWhole(whole, doc, { maxChars, judge: accept })).toBe(out);
      }),
      { numRuns: 150 },
    );
  });
});

describe('rewriteText on markdown, on the house model', () => {
  it('converts a document with a heading, a list, bold, a link and a code block with its structure intact', async () => {
    const engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
    try {
      const out = await rewriteWhole(engine, DOC, { maxChars: 360 });
      expect(out).not.toBe(DOC);
      expect(prefixes(out)).toEqual(prefixes(DOC));
      expect(structure(out)).toEqual(structure(DOC));
      expect(out).toContain('[the guide](https://example.com/guide)');
      expect(out).toContain('`lp -o fit map.pdf`');
      expect(out.endsWith('```sh\nlp -o fit map.pdf\n```')).toBe(true);
    } finally {
      await engine.dispose();
    }
  });
});
