import { describe, expect, it } from 'vitest';
import { corpusText } from '../corpus/authors.js';
import { FUNCTION_WORDS } from '../eval/function-words.js';
import { burrowsDelta, functionWordProfile } from '../eval/stylometry.js';
import { ARCHAIC_WORDS, plainText } from './plainer.js';

const paragraphs = (author: 'kjv' | 'jargon') =>
  corpusText(author)
    .split('\n\n')
    .filter((p) => p.trim());
const paragraph = (author: 'kjv' | 'jargon', start: string) => {
  const found = paragraphs(author).find((p) => p.startsWith(start));
  if (!found) throw new Error(`no paragraph of ${author} starts "${start}"`);
  return found;
};
/** 200 paragraphs spread evenly over the author's text. */
const sample = (author: 'kjv' | 'jargon') => {
  const all = paragraphs(author);
  return Array.from({ length: 200 }, (_, i) => all[Math.floor((i * all.length) / 200)] as string);
};
const words = (text: string) => text.toLowerCase().match(/\p{L}+(?:'\p{L}+)*/gu) ?? [];
/** Forms the plainer exists to change: the archaic table and -eth/-est verbs. */
const ARCHAIC = /\b(?:unto|thee|thou|ye|thy|thyself|hath|hast|doth|dost|shalt|wilt|saith|spake|verily|\p{L}+eth)\b/iu;

describe('plainText on the King James Bible', () => {
  it('drops stock openings and turns clauses into sentences, keeping every fact', () => {
    expect(plainText(paragraph('kjv', 'In the beginning God created'))).toBe(
      'In the beginning God created the heaven and the earth. The earth was without form, and void. Darkness was ' +
        'upon the face of the deep. The Spirit of God moved upon the face of the waters. God said, Let there be ' +
        'light. There was light. God saw the light, that it was good. God divided the light from the darkness. God ' +
        'called the light Day, and the darkness he called Night. The evening and the morning were the first day.',
    );
  });

  it('modernises archaic pronouns and verbs and keeps names and numbers', () => {
    const original = paragraph('kjv', 'Then after that saith he to his disciples');
    const plain = plainText(original);
    expect(original).toMatch(ARCHAIC);
    expect(plain).not.toMatch(ARCHAIC);
    for (const kept of ['Judaea', 'Jesus', 'Lazarus', 'twelve hours', 'disciples']) expect(plain).toContain(kept);
    expect(plain).toContain('the Jews of late sought to stone you.');
    expect(plain).toContain('he stumbles not, because he sees the light of this world.');
    expect(plain).toContain('Our friend Lazarus sleeps.');
  });

  it('drops "behold" as an interjection', () => {
    const plain = plainText(paragraph('kjv', 'And five of them were wise'));
    expect(plain).toContain('At midnight there was a cry made, the bridegroom comes. Go you out to meet him.');
  });
});

describe('plainText on the Jargon File', () => {
  it('unbrackets a leading label, straightens quotes and keeps e-mail addresses and paths', () => {
    expect(plainText(paragraph('jargon', '[from the Unix null device'))).toBe(
      "From the Unix null device, used as a data sink. A notional 'black hole' in any information space being " +
        'discussed, used, or referred to. A controversial posting, for example, might end "Kudos to ' +
        'rasputin@kremlin.org, flames to /dev/null". See bit bucket.',
    );
  });

  it('turns a semicolon into a sentence end and keeps commands and names', () => {
    expect(plainText(paragraph('jargon', '[IRC; common]'))).toBe(
      'IRC, common. Under most IRC, /me is the "pose" command. If you are logged on as Foonly and type "/me ' +
        'laughs", others watching the channel will see "* Joe Foonly laughs". This usage has been carried over to ' +
        'mail and news, where the reader is expected to perform the same expansion in his or her head.',
    );
  });

  it('keeps asides in brackets as comma phrases and keeps numbers', () => {
    const plain = plainText(paragraph('jargon', 'Numeric zero, as opposed to the letter'));
    expect(plain).toMatch(/^Numeric zero, as opposed to the letter 'O', the 15th letter of the English alphabet\. /);
    expect(plain).toContain('option on IBM 3270 controllers.');
    expect(plain).toContain('ASR-33');
    expect(plain).not.toMatch(/[()[\]“”‘’]/);
  });
});

describe('plainText rules', () => {
  it('modernises archaic words, keeping their case', () => {
    expect(plainText('Unto thee, O LORD, do I lift up my soul.')).toBe('To you, O LORD, do I lift up my soul.');
    expect(plainText('UNTO THEE')).toBe('TO YOU');
    expect(plainText('Yea, hath God said? Nay, whence comest thou?')).toBe(
      'Yes, has God said? No, from where come you?',
    );
  });

  it('reads "art", "thine" and "wherefore" from their neighbours', () => {
    expect(plainText('Thou art my son; art thou not? The art of war.')).toBe(
      'You are my son. Are you not? The art of war.',
    );
    expect(plainText('Lift up thine eyes: the kingdom is thine, and thine own.')).toBe(
      'Lift up your eyes. The kingdom is yours, and your own.',
    );
    expect(plainText('Wherefore art thou Romeo? Wherefore he went.')).toBe('Why are you Romeo? So he went.');
  });

  it('rewrites -eth and -est verbs but not words that only end like them', () => {
    expect(plainText('He giveth, he knoweth, and he cometh; thou knowest it, and thou givest.')).toBe(
      'He gives, he knows, and he comes. You know it, and you give.',
    );
    const lookalikes = 'Seth and his teeth were beneath the forest, an honest priest ate the best harvest in the east.';
    expect(plainText(lookalikes)).toBe(lookalikes);
    // Verbs the table does not know go by spelling.
    expect(plainText('The daemon frobbeth the bits.')).toBe('The daemon frobs the bits.');
  });

  it('drops stock sentence openings, but not "For" as a preposition', () => {
    expect(
      plainText(
        'And it came to pass, that he went. For God is good. For example, this one. But we stayed! Then they ' +
          'left. Verily, verily, I say unto you.',
      ),
    ).toBe('He went. God is good. For example, this one. We stayed. They left. I say to you.');
    expect(plainText('Now is the time.')).toBe('Now is the time.');
  });

  it('normalises punctuation', () => {
    expect(plainText('“Quoted” and ‘single’ — dash -- double; semi: colon! Really? (aside) [bracket] done.')).toBe(
      `"Quoted" and 'single', dash, double. Semi. Colon. Really? Aside, bracket, done.`,
    );
    expect(plainText('From 1970–1980,  the   ASR-33 cost $5.50, e.g. much.')).toBe(
      'From 1970-1980, the ASR-33 cost $5.50, e.g. much.',
    );
  });

  it('leaves e-mail addresses, paths and URLs exactly as they are', () => {
    expect(plainText('Mail rasputin@kremlin.org or write to /dev/null; see http://example.org/a_b!')).toBe(
      'Mail rasputin@kremlin.org or write to /dev/null. See http://example.org/a_b.',
    );
    expect(plainText('Run C:\\Tools\\frob.exe (thou knowest).')).toBe('Run C:\\Tools\\frob.exe, you know.');
  });

  it('gives nothing for empty or blank input and keeps paragraph breaks', () => {
    expect(plainText('')).toBe('');
    expect(plainText('  \n\t \n ')).toBe('');
    expect(plainText('And thou wast there.\n\nAnd so was I.')).toBe('You were there.\n\nSo was I.');
  });
});

describe('plainText over the corpus', () => {
  const kjv = sample('kjv');
  const jargon = sample('jargon');
  const plainKjv = kjv.map(plainText);
  const plainJargon = jargon.map(plainText);

  it('is deterministic and idempotent', () => {
    [...kjv, ...jargon].forEach((p, i) => {
      const plain = i < kjv.length ? plainKjv[i] : plainJargon[i - kjv.length];
      expect(plainText(p)).toBe(plain);
      expect(plainText(plain as string), p).toBe(plain);
    });
  });

  it('removes the archaic forms', () => {
    // Capitalised -eth words are names (Nazareth, Japheth).
    const tokens = plainKjv.flatMap((p) => p.match(/\p{L}+/gu) ?? []);
    const left = tokens.filter((w) => ARCHAIC.test(w) && w !== 'teeth' && !/^\p{Lu}\p{Ll}+eth$/u.test(w));
    expect(left).toEqual([]);
  });

  it('keeps most content words of every passage', () => {
    const content = (w: string) =>
      !FUNCTION_WORDS.includes(w) && !Object.hasOwn(ARCHAIC_WORDS, w) && !/(?:eth|est|dst)$/.test(w);
    const pairs: [string[], string[]][] = [
      [kjv, plainKjv],
      [jargon, plainJargon],
    ];
    for (const [originals, plains] of pairs) {
      originals.forEach((original, i) => {
        const kept = new Set(words(plains[i] as string));
        const ws = words(original).filter(content);
        const survived = ws.filter((w) => kept.has(w)).length / ws.length;
        expect(survived, original).toBeGreaterThanOrEqual(0.6);
      });
    }
  });

  // Function words measure the change. The plainer cannot make the two authors' profiles meet:
  // modernising thou, thee, ye and thy puts "you" and "your" into the plain Bible, function words
  // the Jargon File seldom uses. What it must do is move the archaic text towards modern usage
  // and leave the modern text's profile where it was.
  it('moves the archaic author and leaves the modern one alone', () => {
    const reference = [...kjv, ...jargon];
    const join = (ps: string[]) => ps.join('\n\n');
    expect(burrowsDelta(join(plainJargon), join(jargon), reference)).toBeLessThan(0.02);
    expect(burrowsDelta(join(plainKjv), join(kjv), reference)).toBeGreaterThan(0.15);
    // The Bible's "and" at the head of every sentence goes: its rate comes near the Jargon File's.
    const and = (ps: string[]) => functionWordProfile(join(ps)).frequencies.and ?? 0;
    expect(Math.abs(and(plainKjv) - and(jargon))).toBeLessThan(0.5 * Math.abs(and(kjv) - and(jargon)));
  });
});
