// The plainer: turns a passage into a plain, generic version of itself that keeps its content
// (the same facts, names, numbers, in the same order) and loses its style. Training pairs for
// the rewrite task are (plain version, original), and the evaluation harness uses it to make
// neutral paragraphs. Style is measured over function words (eval/stylometry.ts), so the plainer
// above all moves function words to a modern profile: archaic forms, -eth/-est verbs, stock
// sentence openings. Rare content words become common synonyms from plain-words.tsv, generated
// from WordNet by corpus/build-plain-words.ts. Pure and deterministic; plainText(plainText(x))
// is plainText(x).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from '../corpus/paths.js';
import { FUNCTION_WORDS } from '../eval/function-words.js';

/**
 * Archaic words and their modern forms (lowercase; case is carried over from the text). Words
 * whose modern form depends on their neighbours (art, thine, mine, wherefore) are handled in
 * modernWord, and behold and lo as interjections in plainPunctuation.
 */
export const ARCHAIC_WORDS: Readonly<Record<string, string>> = {
  // pronouns
  thou: 'you',
  thee: 'you',
  ye: 'you',
  thy: 'your',
  thyself: 'yourself',
  // auxiliaries and common verbs
  hath: 'has',
  hast: 'have',
  hadst: 'had',
  doth: 'does',
  dost: 'do',
  doeth: 'does',
  doest: 'do',
  didst: 'did',
  diddest: 'did',
  shalt: 'will',
  wilt: 'will',
  canst: 'can',
  couldst: 'could',
  couldest: 'could',
  wouldst: 'would',
  wouldest: 'would',
  shouldst: 'should',
  shouldest: 'should',
  mayest: 'may',
  mayst: 'may',
  mightest: 'might',
  mightst: 'might',
  oughtest: 'ought',
  wast: 'were',
  wert: 'were',
  beest: 'are',
  saith: 'says',
  sayest: 'say',
  saidst: 'said',
  spake: 'spoke',
  spakest: 'spoke',
  brake: 'broke',
  brakest: 'broke',
  sware: 'swore',
  swarest: 'swore',
  smote: 'struck',
  smotest: 'struck',
  slewest: 'killed',
  gat: 'got',
  begat: 'fathered',
  durst: 'dared',
  holpen: 'helped',
  digged: 'dug',
  shew: 'show',
  shewed: 'showed',
  shewn: 'shown',
  shewest: 'show',
  sheweth: 'shows',
  shewing: 'showing',
  behold: 'see',
  beheld: 'saw',
  beholdest: 'see',
  beholdeth: 'sees',
  lo: 'look',
  wot: 'know',
  wotteth: 'knows',
  wist: 'knew',
  listeth: 'wishes',
  methinks: 'I think',
  // adverbs, conjunctions, prepositions
  unto: 'to',
  verily: 'truly',
  yea: 'yes',
  nay: 'no',
  ere: 'before',
  whilst: 'while',
  amongst: 'among',
  amidst: 'amid',
  betwixt: 'between',
  hither: 'here',
  thither: 'there',
  whither: 'where',
  whence: 'from where',
  thence: 'from there',
  whereby: 'by which',
  wherein: 'in which',
  whereof: 'of which',
  whereon: 'on which',
  wherewith: 'with which',
  whereunto: 'to which',
  thereof: 'of it',
  therein: 'in it',
  thereon: 'on it',
  thereto: 'to it',
  thereunto: 'to it',
  therewith: 'with it',
  thereat: 'at it',
  herein: 'in this',
  oft: 'often',
  nigh: 'near',
  naught: 'nothing',
  nought: 'nothing',
  aught: 'anything',
  peradventure: 'perhaps',
  haply: 'perhaps',
  howbeit: 'however',
  albeit: 'although',
  afore: 'before',
  aforetime: 'before',
  anon: 'soon',
  fain: 'gladly',
  twain: 'two',
  wroth: 'angry',
  whoso: 'whoever',
  whosoever: 'whoever',
  whatsoever: 'whatever',
  whomsoever: 'whomever',
  whithersoever: 'wherever',
  howsoever: 'however',
};

// Lowercase -eth words that are not verbs, for the fallback (names such as Seth or Nazareth are
// capitalised, and the fallback only takes lowercase words; ordinals end in -tieth).
const ETH_EXCEPTIONS = new Set(['teeth', 'beneath', 'underneath', 'shibboleth']);

// -est words that are not second-person verbs, for the fallback next to "thou".
const EST_EXCEPTIONS = new Set([
  'best',
  'rest',
  'east',
  'west',
  'least',
  'most',
  'priest',
  'forest',
  'honest',
  'interest',
  'harvest',
  'modest',
  'earnest',
  'manifest',
  'request',
  'behest',
  'midst',
  'lest',
]);

// Sentence openings that carry style rather than content, dropped where a sentence starts. "For"
// and "Now" are dropped only as conjunctions: see dropOpening.
const OPENINGS = [
  /^(?:and )?it came to pass,? (?:that,? )?/i,
  /^(?:verily|truly),? (?:verily|truly),? /i,
  /^(?:and|but),? (?=\p{L})/iu,
  /^(?:now|then),? (?=\p{L})/iu,
];
const FOR_OPENING = /^for,? (?=\p{L})/iu;
/** A finite verb in a "For ..." sentence: "For the LORD is good" is a conjunction, "For more, see" is not. */
const FINITE = /\b(?:is|was|are|were|am|hath|has|had|have|shall|will|did|doth|does|do|can|may|must)\b/i;
const SUBJECT = /^(?:i|we|you|ye|thou|he|she|it|they|there)\b/i;
/** After "Now" or "Then" these mean the word was an adverb: "Now is the time". */
const ADVERB_NEXT = /^(?:is|was|are|were|that|and|or|then|than)\b/i;

const ARCHAIC = new Map(Object.entries(ARCHAIC_WORDS));
const FUNCTION = new Set(FUNCTION_WORDS);

/** Stands in for a protected span (an e-mail address, a path, a number) while the text is rewritten. */
const HOLE = '\uE000';
/**
 * Spans left exactly as they are: anything with @ / \ _ or a symbol a word does not have, dotted
 * tokens (e.g., 3.14, example.org), a bang path, an ellipsis, common abbreviations and initials.
 */
const PROTECTED =
  /(?<!\p{L})(?:\p{L}\.){2,}|[^\s()[\]{}"“”‘’,;]*(?:[@/\\_=<>#$%&*+~^|`]|\w[.!]\w|\w\(\))[^\s()[\]{}"“”‘’,;]*(?<![.,;:!?'’])|\.{3}|…|\b(?:etc|vs|cf|viz|Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Inc|Ltd|approx|esp)\.|(?<!\p{L})[A-HJ-Z]\.(?= \p{Lu})/gu;

const WORD = /\p{L}+(?:['’]\p{L}+)*/gu;

/** The plain version of a passage (paragraph breaks kept). */
export function plainText(passage: string): string {
  const held: string[] = [];
  let text = passage.replaceAll(HOLE, ' ').replace(PROTECTED, (span) => {
    held.push(span);
    return HOLE;
  });
  // Openings are dropped after the words are modernised, so that a second pass sees the same
  // words when it decides whether "For" is a conjunction.
  text = plainPunctuation(text);
  text = plainWords(text);
  text = text.split(/(\n+)/).map(plainParagraph).join('');
  let i = 0;
  return text.replaceAll(HOLE, () => held[i++] ?? '').trim();
}

function plainPunctuation(text: string): string {
  let t = text
    .replace(/[“”„‟«»]/g, '"')
    .replace(/[‘’‚‛]/g, "'")
    .replace(/(\d)\s*[–—]\s*(?=\d)/g, '$1-')
    .replace(/\s*(?:[—–]|(?<=\s)--(?=\s)|(?<=\p{L})--(?=\p{L}))\s*/gu, ', ')
    .replace(/\?!+/g, '?')
    .replace(/!+/g, '.');
  // Innermost brackets first: their words stay, set off by commas, or as a sentence of their own.
  const GROUP = /[([{]([^()[\]{}]*)[)\]}]/g;
  for (let prev = ''; prev !== t; ) {
    prev = t;
    t = t.replace(GROUP, (group, inner: string, at: number, whole: string) => {
      const before = at < 8 ? `\n${whole.slice(0, at)}` : whole.slice(at - 8, at);
      return bracketed(inner, before, whole.slice(at + group.length, at + group.length + 8));
    });
  }
  t = t.replace(/[()[\]{}]/g, ' ');
  // Clauses joined by semicolons or colons become sentences.
  t = t.replace(/\s*[;:](?:\s+|$)(["']?)(\p{L}?)/gmu, (_m, q: string, c: string) => `. ${q}${c.toUpperCase()}`);
  t = t.replace(/;/g, ',');
  // Behold and lo as interjections go; as verbs they are modernised with the other words.
  t = t.replace(
    /(^|[.?]["']?\s+|\n|,\s*|\band\s+)(?:behold|lo),\s*(\p{L}?)/gimu,
    (_m, before: string, c: string) => before + (/^[,a]/i.test(before) ? c : c.toUpperCase()),
  );
  return tidy(t);
}

/** A bracketed group's words, given a few characters either side of it (a newline: none before). */
function bracketed(inner: string, before: string, after: string): string {
  let words = inner
    .replace(/\s*;\s*/g, ', ')
    .replace(/[\s,:]+$/, '')
    .trim();
  if (!words) return '';
  const atStart = /[.?\n]["']?\s*$/.test(before);
  if (atStart) words = words.charAt(0).toUpperCase() + words.slice(1);
  const endsSentence = /[.?]["']?$/.test(words);
  const open = atStart ? '' : ', ';
  let close = ',';
  if (endsSentence || /^\s*(?:[.,?:;"']|$)/.test(after)) close = '';
  else if (atStart && /^\s+["']?\p{Lu}/u.test(after)) close = '.';
  return `${open}${words}${close}`;
}

function tidy(t: string): string {
  return t
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/ +([,.?])/g, '$1')
    .replace(/,(?:[ ,]*,)+/g, ',')
    .replace(/,+ *([.?])/g, '$1')
    .replace(/([.?]) *,/g, '$1')
    .replace(/\.(?: *\.)+/g, '.')
    .replace(/\?[ .]*\./g, '?')
    .replace(/\.[ ]*\?/g, '?')
    .replace(/(^|\n) *[,.] */g, '$1');
}

interface Token {
  word: string;
  start: number;
  end: number;
}

function plainWords(text: string): string {
  const tokens: Token[] = [...text.matchAll(WORD)].map((m) => ({
    word: m[0],
    start: m.index,
    end: m.index + m[0].length,
  }));
  let out = '';
  let at = 0;
  tokens.forEach((token, i) => {
    out += text.slice(at, token.start) + modernWord(text, tokens, i);
    at = token.end;
  });
  return tidy(out + text.slice(at));
}

function modernWord(text: string, tokens: readonly Token[], i: number): string {
  const { word, start, end } = tokens[i] as Token;
  if (/['’]/.test(word)) return word;
  const lower = word.toLowerCase();
  const prev = tokens[i - 1]?.word.toLowerCase();
  const next = tokens[i + 1];
  switch (lower) {
    case 'art':
      return prev === 'thou' || next?.word.toLowerCase() === 'thou' ? withCase(word, 'are') : word;
    case 'thine':
    case 'mine': {
      // Before a noun (or "own"), a determiner; elsewhere a pronoun.
      const following = next && /^ +$/.test(text.slice(end, next.start)) ? next.word.toLowerCase() : undefined;
      if (following && (following === 'own' || !FUNCTION.has(following)))
        return withCase(word, lower === 'thine' ? 'your' : 'my');
      return lower === 'thine' ? withCase(word, 'yours') : word;
    }
    case 'wherefore':
      return withCase(word, /^[^.?]*\?/.test(text.slice(end, end + 400)) ? 'why' : 'so');
  }
  const archaic = ARCHAIC.get(lower);
  if (archaic !== undefined) return withCase(word, archaic);
  // Plain words only for lowercase words, or a capitalised one that starts a sentence: a capital
  // inside a sentence marks a name (the table has no names). The fallback only for lowercase.
  const capitalised = /^\p{Lu}\p{Ll}*$/u.test(word);
  if (word !== lower && !(capitalised && startsSentence(text, start))) return word;
  const plain = plainWordTable().get(lower);
  if (plain) return withCase(word, plain);
  const thou = prev === 'thou' || next?.word.toLowerCase() === 'thou';
  return (word === lower && modernVerb(lower, thou)) || word;
}

function startsSentence(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 3), at).replace(/["' ]+$/, '');
  return before === '' ? at <= 3 : /[.?\n]$/.test(before);
}

/**
 * The fallback for -eth and -est verbs the table does not know (text from outside the corpus):
 * "maketh" -> "makes", and next to "thou", "knowest" -> "know". Spelling decides the stem: a stem
 * ending in one vowel and one consonant takes back its silent e (make, hide, come), as a doubled
 * consonant would otherwise have been written (sitteth, runneth).
 */
function modernVerb(word: string, withThou: boolean): string | undefined {
  if (word.length >= 5 && word.endsWith('eth') && !ETH_EXCEPTIONS.has(word) && !word.endsWith('tieth')) {
    return thirdPerson(verbStem(word.slice(0, -3)));
  }
  if (withThou && word.length >= 5 && word.endsWith('est') && !EST_EXCEPTIONS.has(word)) {
    return verbStem(word.slice(0, -3));
  }
  return undefined;
}

function verbStem(stem: string): string {
  if (stem.endsWith('i')) return `${stem.slice(0, -1)}y`;
  if (/([^aeioulsfz])\1$/.test(stem)) return stem.slice(0, -1);
  if (/(?:[^s]s|[vue])$/.test(stem)) return `${stem}e`;
  if (/(?:^|[^aeiou])[aiou][^aeiouwxy]$/.test(stem)) return `${stem}e`;
  return stem;
}

function thirdPerson(verb: string): string {
  if (/(?:[sxz]|ch|sh|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/** A sentence-by-sentence pass over one paragraph: stock openings go, first letters are capitals. */
function plainParagraph(paragraph: string): string {
  return paragraph
    .split(/(?<=[.?]["']?) +/)
    .map(plainSentence)
    .join(' ');
}

function plainSentence(sentence: string): string {
  const quote = /^["']/.test(sentence) ? (sentence[0] as string) : '';
  let body = sentence.slice(quote.length);
  let dropped = false;
  for (let rest = dropOpening(body); rest !== body; rest = dropOpening(body)) {
    body = rest;
    dropped = true;
  }
  if (dropped) body = body.charAt(0).toUpperCase() + body.slice(1);
  return quote + body;
}

function dropOpening(sentence: string): string {
  for (const opening of OPENINGS) {
    const m = opening.exec(sentence);
    if (!m) continue;
    const rest = sentence.slice(m[0].length);
    if (/^(?:now|then)/i.test(m[0]) && ADVERB_NEXT.test(rest)) return sentence;
    if (/\p{L}/u.test(rest)) return rest;
  }
  const m = FOR_OPENING.exec(sentence);
  if (m) {
    const rest = sentence.slice(m[0].length);
    const clause = rest.split(/[,.?]/)[0] ?? '';
    if (SUBJECT.test(rest) || FINITE.test(clause)) return rest;
  }
  return sentence;
}

/** `plain` written in the case of `original`: "Unto" -> "To", "UNTO" -> "TO". */
function withCase(original: string, plain: string): string {
  if (!plain) return plain;
  if (original.length > 1 && original === original.toUpperCase()) return plain.toUpperCase();
  if (/^\p{Lu}/u.test(original)) return plain.charAt(0).toUpperCase() + plain.slice(1);
  return plain;
}

let table: ReadonlyMap<string, string> | undefined;

/**
 * plain-words.tsv (word TAB replacement), read once, on first use rather than at load, so that
 * its generator can import ARCHAIC_WORDS from here before the file exists.
 */
function plainWordTable(): ReadonlyMap<string, string> {
  table ??= new Map(
    readFileSync(path.join(CORPUS_DIR, 'plain-words.tsv'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('\t'))
      .map((line) => line.split('\t') as [string, string]),
  );
  return table;
}
