// Cuts text into units that may be packed together: whole paragraphs where they fit, and only
// inside a paragraph that does not fit, its Markdown blocks, then sentences, then words, then
// graphemes. Every unit is a range of the original string that starts and ends on non-whitespace,
// so what lies between two units is exactly the original whitespace (or nothing, for a cut word).

/** How strong the boundary before a unit is; lower is a better place to split. */
export const Break = {
  Paragraph: 0,
  Block: 1,
  Sentence: 2,
  Word: 3,
  Subword: 4,
  Grapheme: 5,
} as const;
export type Break = (typeof Break)[keyof typeof Break];

export interface Range {
  start: number;
  end: number;
}

export interface Unit extends Range {
  /** The boundary between this unit and the previous one. */
  breakBefore: Break;
  /** A one-line Markdown heading: better kept with what follows it. */
  heading: boolean;
}

// A fixed locale keeps the segmentation the same on every machine.
const sentenceSegmenter = new Intl.Segmenter('en', { granularity: 'sentence' });
const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });
const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

const LINE_BREAK = /\r\n|[\n\r\u2028]|(\u2029)/g;
const MARKDOWN_BLOCK_START = /(?:#{1,6}(?=\s|$)|[-*+](?=\s)|\d{1,9}[.)](?=\s)|>)/y;
const MARKDOWN_HEADING = /^#{1,6}[ \t]/;
const MARKER_WORD = /^(?:#{1,6}|[-*+>]|\d{1,9}[.)])$/;
// ICU ends a sentence after any period followed by a capital; these rarely end one.
const ABBREVIATION_END = /(?:^|[\s(])(?:Mr|Mrs|Ms|Mx|Dr|Prof|Sr|Jr|St|Mt|Rev|Gen|Col|Capt|Lt|vs|cf|e\.g|i\.e|[A-Z])\.$/;

/** Line breaks in a whitespace run; a Unicode paragraph separator counts as two. */
function lineBreaks(whitespace: string): number {
  let n = 0;
  for (const m of whitespace.matchAll(LINE_BREAK)) n += m[1] ? 2 : 1;
  return n;
}

/** Non-whitespace extent of text[start, end), or null when it is all whitespace. */
export function trimRange(text: string, start: number, end: number): Range | null {
  let s = start;
  let e = end;
  while (s < e && /\s/.test(text.charAt(s))) s++;
  while (e > s && /\s/.test(text.charAt(e - 1))) e--;
  return s < e ? { start: s, end: e } : null;
}

/** Splits a trimmed range at its whitespace runs that satisfy `cut`. */
function splitAtWhitespace(text: string, r: Range, cut: (ws: string, next: number) => boolean): Range[] {
  const out: Range[] = [];
  const ws = /\s+/g;
  ws.lastIndex = r.start;
  let from = r.start;
  for (let m = ws.exec(text); m && m.index < r.end; m = ws.exec(text)) {
    const next = m.index + m[0].length;
    if (cut(m[0], next)) {
      out.push({ start: from, end: m.index });
      from = next;
    }
  }
  out.push({ start: from, end: r.end });
  return out;
}

function paragraphs(text: string, r: Range): Range[] {
  return splitAtWhitespace(text, r, (ws) => lineBreaks(ws) >= 2);
}

// Inside a paragraph: a new block starts at a line that opens a heading, list item or quote,
// and at the line after a heading.
function blocks(text: string, r: Range): Range[] {
  let lineStart = r.start;
  return splitAtWhitespace(text, r, (ws, next) => {
    if (lineBreaks(ws) === 0) return false;
    const previousIsHeading = MARKDOWN_HEADING.test(text.slice(lineStart, lineStart + 8));
    lineStart = next;
    MARKDOWN_BLOCK_START.lastIndex = next;
    return previousIsHeading || MARKDOWN_BLOCK_START.test(text);
  });
}

function sentences(text: string, r: Range): Range[] {
  // Line breaks become spaces (same length) so hard-wrapped lines are not taken for sentences.
  const flat = text.slice(r.start, r.end).replace(/[\r\n\u2028\u2029]/g, ' ');
  const out: Range[] = [];
  for (const [from, to] of segmentBounds(sentenceSegmenter, flat, 4096)) {
    const t = trimRange(text, r.start + from, r.start + to);
    if (!t) continue;
    const last = out.at(-1);
    if (last && ABBREVIATION_END.test(text.slice(Math.max(last.start, last.end - 12), last.end))) last.end = t.end;
    else out.push(t);
  }
  return out;
}

// A heading, list or quote marker stays with the word after it where both fit.
function words(text: string, r: Range, max: number): Range[] {
  const out: Range[] = [];
  for (const w of splitAtWhitespace(text, r, () => true)) {
    const last = out.at(-1);
    if (last && w.end - last.start <= max && MARKER_WORD.test(text.slice(last.start, last.end))) last.end = w.end;
    else out.push(w);
  }
  return out;
}

// A run without spaces (CJK, a long URL): cut before word-like segments so punctuation stays
// with the word before it.
function subwords(text: string, r: Range): Range[] {
  const token = text.slice(r.start, r.end);
  const out: Range[] = [];
  for (const [from, to, wordLike] of segmentBounds(wordSegmenter, token, 1024)) {
    const last = out.at(-1);
    if (last && !wordLike) last.end = r.start + to;
    else out.push({ start: r.start + from, end: r.start + to });
  }
  return out;
}

// Last resort: graphemes packed greedily up to max; a grapheme longer than max (a long emoji
// sequence) is cut between code points, and a code point is never cut.
function graphemes(text: string, r: Range, max: number): Range[] {
  const token = text.slice(r.start, r.end);
  const pieces: Range[] = [];
  // Below U+0300 (no combining marks, no emoji) and without spaces, every code unit is a grapheme.
  const bounds: Iterable<[number, number, boolean]> = /[\u0300-\uFFFF]/.test(token)
    ? segmentBounds(graphemeSegmenter, token, 512)
    : Array.from(token, (_, i): [number, number, boolean] => [i, i + 1, false]);
  for (const [from, to] of bounds) {
    if (to - from <= max) {
      pieces.push({ start: r.start + from, end: r.start + to });
      continue;
    }
    let at = r.start + from;
    for (const cp of token.slice(from, to)) {
      pieces.push({ start: at, end: at + cp.length });
      at += cp.length;
    }
  }
  const out: Range[] = [];
  for (const p of pieces) {
    const last = out.at(-1);
    if (last && p.end - last.start <= max) last.end = p.end;
    else out.push({ ...p });
  }
  return out;
}

// V8's segment iterator costs time in proportion to the whole string for every segment, which is
// quadratic on long text; segmenting a window at a time keeps it linear. A boundary is taken only
// when enough text follows it inside the window for the segmentation rules to have seen its
// context; the next window starts at the last boundary taken.
const CONTEXT = 64;

function* segmentBounds(
  segmenter: Intl.Segmenter,
  s: string,
  window: number,
): Generator<[from: number, to: number, wordLike: boolean]> {
  let pos = 0;
  let size = window;
  while (pos < s.length) {
    const end = Math.min(s.length, pos + size);
    const segments = [...segmenter.segment(s.slice(pos, end))];
    const last = end === s.length;
    let taken = pos;
    for (const seg of segments) {
      const to = pos + seg.index + seg.segment.length;
      if (!last && to > end - CONTEXT) break;
      yield [pos + seg.index, to, seg.isWordLike ?? false];
      taken = to;
    }
    if (taken === pos) size *= 2;
    else {
      pos = taken;
      size = window;
    }
  }
}

const SPLITTERS: Array<(text: string, r: Range, max: number) => Range[]> = [
  paragraphs,
  blocks,
  sentences,
  words,
  subwords,
  graphemes,
];

/**
 * The units of `text` for a given maximum size: a range that fits is one unit; one that does not
 * is split at the strongest boundary it has, and its parts are split further only where needed.
 * A unit is longer than `maxChars` only when it is a single code point.
 */
export function splitUnits(text: string, maxChars: number): Unit[] {
  const out: Unit[] = [];
  const whole = trimRange(text, 0, text.length);
  if (whole) refine(text, whole, 0, Break.Paragraph, maxChars, out);
  return out;
}

function refine(text: string, r: Range, level: number, breakBefore: Break, max: number, out: Unit[]): void {
  const splitter = SPLITTERS[level];
  if (r.end - r.start <= max || !splitter) {
    const body = text.slice(r.start, r.end);
    out.push({ ...r, breakBefore, heading: MARKDOWN_HEADING.test(body) && !/[\r\n]/.test(body) });
    return;
  }
  const parts = splitter(text, r, max);
  if (parts.length <= 1) {
    refine(text, r, level + 1, breakBefore, max, out);
    return;
  }
  parts.forEach((p, i) => {
    refine(text, p, level + 1, i === 0 ? breakBefore : (level as Break), max, out);
  });
}
