// Rebuilds plain-words.tsv, the plainer's table of plain words (src/house-model/plainer.ts), from
// Debian's WordNet 3.0:
//   apt-get install wordnet-base        (files under /usr/share/wordnet)
//   npx tsx packages/engine/corpus/build-plain-words.ts
// For every word of kjv.txt and jargon.txt it writes "word<TAB>plain word" where a plain word
// is known:
//   - archaic verbs: "giveth" -> "gives", "knowest" -> "know", "gavest" -> "gave", with WordNet
//     saying which stem is a verb (so "priest", "honest", "teeth" are left alone);
//   - rare words: the most common single-word lemma of the word's most frequent sense, where it
//     is clearly more common, in the same part of speech, inflected as the word was ("serpents"
//     -> "snakes", "kine" -> "cattle"), or not at all where that is unsafe.
// How common a sense is comes from SemCor's tag counts, which Debian's package keeps in
// cntlist.rev by sense key (it ships no index.sense). Names (capitalised inside sentences more
// often than not), function words and the plainer's archaic words are left out. Deterministic:
// the same WordNet and corpus give the same file.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FUNCTION_WORDS } from '../src/eval/function-words.js';
import { ARCHAIC_WORDS } from '../src/house-model/plainer.js';

const WORDNET = '/usr/share/wordnet';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CORPORA = ['kjv.txt', 'jargon.txt'];

/** A word is replaced only when its own tag count is at most this... */
const RARE_MAX = 5;
/** ...and the replacement's is at least this many times it, and at least MIN_COMMON. */
const RATIO = 3;
const MIN_COMMON = 5;

type Pos = 'n' | 'v' | 'a' | 'r';
const POS: readonly Pos[] = ['n', 'v', 'a', 'r'];
const POS_FILE: Record<Pos, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
const SS_TYPE: Record<string, number> = { n: 1, v: 2, a: 3, s: 5, r: 4 };

/** How a form relates to its lemma. "irregular": a verb.exc form, past or participle. */
type Inflection = 'base' | 'plural' | 'third' | 'past' | 'irregular' | 'ing' | 'degree';

interface Sense {
  /** The synset's single-word lemmas, as written (capitals kept), with this sense's tag count. */
  lemmas: { lemma: string; count: number }[];
}

interface Reading {
  pos: Pos;
  lemma: string;
  inflection: Inflection;
}

const wn = (file: string) => readFileSync(path.join(WORDNET, file), 'utf8');
const lines = (file: string) =>
  wn(file)
    .split('\n')
    .filter((l) => l && !l.startsWith(' '));

// cntlist.rev: "lemma%ss_type:lex_filenum:lex_id:head_word:head_id sense_number tag_count". The
// head word only tells satellites apart from their head, so it is left out of the key.
const tagCounts = new Map<string, number>();
for (const line of lines('cntlist.rev')) {
  const [key = '', , count = '0'] = line.split(' ');
  const short = key.split(':').slice(0, 3).join(':');
  tagCounts.set(short, (tagCounts.get(short) ?? 0) + Number(count));
}

// data.*: every synset's lemmas with their tag counts in that synset.
const synsets = new Map<string, Sense>();
for (const pos of POS) {
  for (const line of lines(`data.${POS_FILE[pos]}`)) {
    const f = line.split(' ');
    const [offset = '', lexFile = '', ssType = ''] = f;
    const n = Number.parseInt(f[3] ?? '0', 16);
    const lemmas: Sense['lemmas'] = [];
    for (let i = 0; i < n; i++) {
      const lemma = (f[4 + 2 * i] ?? '').replace(/\(.*\)$/, '');
      const lexId = Number.parseInt(f[5 + 2 * i] ?? '0', 16);
      const key = `${lemma.toLowerCase()}%${SS_TYPE[ssType]}:${lexFile}:${String(lexId).padStart(2, '0')}`;
      lemmas.push({ lemma, count: tagCounts.get(key) ?? 0 });
    }
    synsets.set(`${pos}${offset}`, { lemmas });
  }
}

// index.*: each lemma's synsets, per part of speech.
const index = new Map<string, string[]>();
for (const pos of POS) {
  for (const line of lines(`index.${POS_FILE[pos]}`)) {
    const f = line.trim().split(' ');
    const synsetCount = Number(f[2]);
    index.set(
      `${pos}:${f[0]}`,
      f.slice(-synsetCount).map((o) => `${pos}${o}`),
    );
  }
}

// *.exc: irregular forms -> lemmas, and back.
const exceptions = new Map<string, string[]>();
const irregularForms = new Map<string, string[]>();
for (const pos of POS) {
  for (const line of lines(`${POS_FILE[pos]}.exc`)) {
    const [form = '', ...lemmas] = line.trim().split(' ');
    exceptions.set(`${pos}:${form}`, lemmas);
    for (const lemma of lemmas)
      irregularForms.set(`${pos}:${lemma}`, [...(irregularForms.get(`${pos}:${lemma}`) ?? []), form]);
  }
}

/** The tag count of each of lemma's senses in pos, in WordNet's order. */
function senses(pos: Pos, lemma: string): { synset: string; count: number }[] {
  return (index.get(`${pos}:${lemma}`) ?? []).map((synset) => ({
    synset,
    count: synsets.get(synset)?.lemmas.find((l) => l.lemma.toLowerCase() === lemma)?.count ?? 0,
  }));
}

const lemmaCount = (pos: Pos, lemma: string) => senses(pos, lemma).reduce((s, x) => s + x.count, 0);

// WordNet's own morphology (morphy): suffixes to take off, and what to put back.
const SUFFIXES: Record<Pos, [string, string, Inflection][]> = {
  n: [
    ['s', '', 'plural'],
    ['ses', 's', 'plural'],
    ['xes', 'x', 'plural'],
    ['zes', 'z', 'plural'],
    ['ches', 'ch', 'plural'],
    ['shes', 'sh', 'plural'],
    ['men', 'man', 'plural'],
    ['ies', 'y', 'plural'],
  ],
  v: [
    ['s', '', 'third'],
    ['ies', 'y', 'third'],
    ['es', 'e', 'third'],
    ['es', '', 'third'],
    ['ed', 'e', 'past'],
    ['ed', '', 'past'],
    ['ing', 'e', 'ing'],
    ['ing', '', 'ing'],
  ],
  a: [
    ['er', '', 'degree'],
    ['est', '', 'degree'],
    ['er', 'e', 'degree'],
    ['est', 'e', 'degree'],
  ],
  r: [],
};

/** Every way WordNet can read a form, one reading per part of speech and lemma. */
function readings(form: string): Reading[] {
  const found: Reading[] = [];
  const add = (pos: Pos, lemma: string, inflection: Inflection) => {
    if (index.has(`${pos}:${lemma}`) && !found.some((r) => r.pos === pos && r.lemma === lemma))
      found.push({ pos, lemma, inflection });
  };
  for (const pos of POS) {
    add(pos, form, 'base');
    for (const lemma of exceptions.get(`${pos}:${form}`) ?? []) {
      const inflection = { n: 'plural', v: form.endsWith('ing') ? 'ing' : 'irregular', a: 'degree', r: 'degree' }[pos];
      add(pos, lemma, inflection as Inflection);
    }
    for (const [cut, put, inflection] of SUFFIXES[pos]) {
      if (form.endsWith(cut) && form.length > cut.length + 1) add(pos, form.slice(0, -cut.length) + put, inflection);
    }
  }
  return found;
}

/**
 * A consonant-vowel-consonant end may double before -ed and -ing (stop, stopped) or not (visit,
 * visited): such inflections are not guessed.
 */
const CVC = /(?:^|[^aeiou])[aeiou][^aeiouwxy]$/;

/** lemma in pos, inflected as `inflection`; undefined where that is not safe to guess. */
function inflect(pos: Pos, lemma: string, inflection: Inflection): string | undefined {
  const irregular = irregularForms.get(`${pos}:${lemma}`) ?? [];
  switch (inflection) {
    case 'base':
      return lemma;
    case 'plural':
      if (irregular.length) return irregular.length === 1 ? irregular[0] : undefined;
      if (/(?:f|fe|o|us|um|is|ex|ix|a)$/.test(lemma)) return undefined;
      if (lemma.endsWith('man')) return `${lemma.slice(0, -3)}men`;
      return pluralS(lemma);
    case 'third':
      return pluralS(lemma);
    case 'past':
    case 'irregular': {
      const past = irregular.filter((f) => !f.endsWith('ing') && !f.endsWith('s'));
      if (past.length) return past.length === 1 ? past[0] : undefined;
      if (lemma.endsWith('e')) return `${lemma}d`;
      if (/[^aeiou]y$/.test(lemma)) return `${lemma.slice(0, -1)}ied`;
      return CVC.test(lemma) ? undefined : `${lemma}ed`;
    }
    case 'ing':
      if (lemma.endsWith('ie')) return `${lemma.slice(0, -2)}ying`;
      if (/[^eyo]e$/.test(lemma)) return `${lemma.slice(0, -1)}ing`;
      return CVC.test(lemma) ? undefined : `${lemma}ing`;
    case 'degree':
      return undefined;
  }
}

function pluralS(word: string): string {
  if (/(?:[sxz]|ch|sh|o)$/.test(word)) return `${word}es`;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

const FUNCTION = new Set(FUNCTION_WORDS);

/**
 * Words kept as they are although WordNet has a plainer word for them: the corpus uses them in
 * another sense than WordNet's most frequent one (technical terms of the Jargon File, "forth" in
 * "brought forth"), or the plainer word would change what is said.
 */
const KEEP = new Set(
  `
  arena bash blessings comic console consoles craft delimit delimits dismal eloquent executable forth
  glob grunge hilarious integrity lace manpower meg megs mete mint moderately mortals quaternions
  scarce sec sensationalistic sequential serial setup somebody someone twiddle twiddled twiddling
  twisty ultra whatever wizardly
  `
    .trim()
    .split(/\s+/),
);

/**
 * The plain word for a rare form, or undefined. The form must read one way only (one part of
 * speech, and one lemma or its other lemmas unused in SemCor), its lemma be rare, and its most
 * frequent sense be clear: the only sense, or one that has at least half of the lemma's tags.
 */
function plainWord(form: string): string | undefined {
  const all = readings(form).map((r) => ({ ...r, count: lemmaCount(r.pos, r.lemma) }));
  const own = all.reduce((s, r) => s + r.count, 0);
  const [reading, ...others] = [...all].sort((a, b) => b.count - a.count);
  if (!reading || own > RARE_MAX || others.some((o) => o.pos !== reading.pos || o.count > 0 || !reading.count))
    return undefined;
  const { pos, lemma, inflection } = reading;
  // The form must be what its reading says ("licensees" is not "license" + "es").
  if (inflection === 'degree' || !isForm(form, pos, lemma, inflection)) return undefined;
  const lemmaSenses = senses(pos, lemma);
  const top = lemmaSenses.reduce(
    (best, s) => (s.count > best.count ? s : best),
    lemmaSenses[0] ?? { synset: '', count: 0 },
  );
  if (lemmaSenses.length > 1 && !(top.count > 0 && 2 * top.count >= reading.count)) return undefined;
  const sense = synsets.get(top.synset);
  // A sense whose lemma is written with a capital is a name's.
  if (!sense || sense.lemmas.some((l) => l.lemma.toLowerCase() === lemma && l.lemma !== lemma)) return undefined;
  let best: { lemma: string; total: number } | undefined;
  for (const candidate of sense.lemmas) {
    const word = candidate.lemma;
    if (word === lemma || !/^[a-z]*[aeiouy][a-z]*$/.test(word) || word.length < 3) continue;
    if (candidate.count === 0 || FUNCTION.has(word) || Object.hasOwn(ARCHAIC_WORDS, word)) continue;
    // Only a word whose own most frequent sense this is: a reader takes it in that sense.
    const its = senses(pos, word);
    if (its.some((s) => s.count > candidate.count)) continue;
    const total = its.reduce((sum, s) => sum + s.count, 0);
    if (!best || total > best.total) best = { lemma: word, total };
  }
  if (!best || best.total < Math.max(MIN_COMMON, RATIO * own)) return undefined;
  const plain = inflect(pos, best.lemma, inflection);
  return plain && plain !== form ? plain : undefined;
}

function isForm(form: string, pos: Pos, lemma: string, inflection: Inflection): boolean {
  if (inflection === 'base' || exceptions.get(`${pos}:${form}`)?.includes(lemma)) return true;
  if (inflection === 'past')
    return form === `${lemma}ed` || form === `${lemma}d` || form === `${lemma.slice(0, -1)}ied`;
  if (inflection === 'ing') return form === `${lemma}ing` || form === `${lemma.replace(/e$/, '')}ing`;
  return form === inflect(pos, lemma, inflection);
}

/**
 * Stems an -eth or -est ending may have been put on: sitteth -> sit, crieth -> cry. A one-syllable
 * stem ending in one vowel and one consonant lost a silent e, since otherwise the consonant would
 * have been doubled: "hateth" is hate, not hat; "barest" is bare, not bar.
 */
function stems(stem: string): string[] {
  if (/^[^aeiou]*[aeiou][^aeiouwxy]$/.test(stem)) return [`${stem}e`];
  const found = [stem, `${stem}e`];
  if (/([^aeiou])\1$/.test(stem)) found.push(stem.slice(0, -1));
  if (stem.endsWith('i')) found.push(`${stem.slice(0, -1)}y`);
  return found;
}

/**
 * The modern form of an archaic verb: "-eth" -> third person ("maketh" -> "makes"), "-est" or
 * "-st" -> the form "you" takes ("knowest" -> "know", "gavest" -> "gave", "lovedst" -> "loved").
 * A stem that is also an adjective is a superlative, not a verb ("lowest"), and is left alone.
 */
function modernVerb(form: string): string | undefined {
  // A word in its own right is left alone ("priest", "teeth"); a superlative is sorted out below.
  if (readings(form).some((r) => r.inflection !== 'degree')) return undefined;
  const verbs = (c: string) => readings(c).filter((r) => r.pos === 'v');
  if (form.endsWith('eth') && form.length >= 5) {
    const candidates = stems(form.slice(0, -3)).filter((c) => verbs(c).some((r) => r.lemma === c));
    const [lemma] = candidates.sort((a, b) => lemmaCount('v', b) - lemmaCount('v', a));
    return lemma ? pluralS(lemma) : undefined;
  }
  // -est on a present stem, or -st on a past ("lovedst", "hadst"); a stem read as a verb's
  // base form wins over one read as a past ("smitest" is smite, not smit).
  const options = form.endsWith('est') && form.length >= 5 ? stems(form.slice(0, -3)) : [];
  const past = form.slice(0, -2);
  if (form.endsWith('st') && (past.endsWith('ed') || exceptions.has(`v:${past}`))) options.push(past);
  let best: { form: string; base: boolean } | undefined;
  for (const candidate of options) {
    // A present stem used more as an adjective than as a verb makes a superlative ("lowest").
    const adjective = lemmaCount('a', candidate) >= lemmaCount('v', candidate) && index.has(`a:${candidate}`);
    for (const r of verbs(candidate)) {
      const base = r.lemma === candidate;
      if (r.inflection === 'third' || r.inflection === 'ing' || (base && adjective)) continue;
      const modern = r.inflection === 'past' ? (inflect('v', r.lemma, 'past') ?? candidate) : candidate;
      if (!best || (base && !best.base)) best = { form: modern, base };
    }
  }
  return best?.form;
}

// The corpus: each lowercase letters-only word, with how often it is capitalised inside a sentence.
interface Usage {
  lower: number;
  capitalisedInside: number;
}
const usage = new Map<string, Usage>();
for (const file of CORPORA) {
  const text = readFileSync(path.join(HERE, file), 'utf8');
  for (const m of text.matchAll(/(?<![\p{L}\p{N}_@/\\'’-])\p{L}+(?![\p{L}\p{N}_@/\\'’])/gu)) {
    const word = m[0];
    const lower = word.toLowerCase();
    if (!/^[a-z]+$/.test(lower)) continue;
    const u = usage.get(lower) ?? { lower: 0, capitalisedInside: 0 };
    const before = text.slice(Math.max(0, m.index - 3), m.index).replace(/["'“‘ ([]+$/, '');
    const startsSentence = before === '' || /[.?!:;\n]$/.test(before);
    if (word === lower) u.lower++;
    else if (!startsSentence) u.capitalisedInside++;
    usage.set(lower, u);
  }
}

const table = new Map<string, string>();
const archaicVerbs = new Map<string, string>();
for (const [word, u] of [...usage].sort(([a], [b]) => (a < b ? -1 : 1))) {
  if (word.length < 3 || FUNCTION.has(word) || KEEP.has(word) || Object.hasOwn(ARCHAIC_WORDS, word)) continue;
  if (u.capitalisedInside > u.lower) continue;
  const verb = modernVerb(word);
  if (verb) archaicVerbs.set(word, verb);
  else {
    const plain = plainWord(word);
    if (plain) table.set(word, plain);
  }
}
// Archaic verbs go on to their modern plain word ("oppresseth" -> "oppresses" -> "crushes").
for (const [word, verb] of archaicVerbs) {
  const plain = table.get(verb) ?? plainWord(verb) ?? verb;
  table.set(word, Object.hasOwn(ARCHAIC_WORDS, plain) ? (ARCHAIC_WORDS[plain] as string) : plain);
}
// The plainer applies the table once, so no plain word may itself be a key (or it would change
// again on a second pass).
for (const [word, plain] of table) if (table.has(plain) || plain === word) table.delete(word);

const out = [...table].sort(([a], [b]) => (a < b ? -1 : 1)).map(([w, p]) => `${w}\t${p}\n`);
writeFileSync(path.join(HERE, 'plain-words.tsv'), out.join(''));
console.log(`plain-words.tsv: ${out.length} words (${archaicVerbs.size} archaic verbs)`);
