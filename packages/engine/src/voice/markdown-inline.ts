// The inline markup of a prose block, read so that the model gets the words alone and the markup
// goes back onto the same words in its rewrite.
//
//   inlineSpans(text, lines)   the block's spans, nested, in absolute offsets of `text`:
//     code       `npm i`            atomic: its content comes back byte for byte
//     autolink   <https://x.org>    atomic
//     link       [the docs](url)    its text is words; its destination never changes
//     image      ![a map](map.png)  likewise
//     emphasis   **x** *x* _x_ ~~x~~ ***x***
//   plainText(text, range, spans)    what the model reads: the words, markup and escapes taken off
//   reapplySpans(text, written, spans)
//     finds each span's words in the rewrite, in order, and puts the span's markup back on them;
//     emphasis whose words are gone is dropped (its inner spans are still looked for); null when
//     the words of a code span, autolink, link or image are gone: the caller keeps the original.
//
// A span is found again when its words come back in order at word boundaries, whitespace free;
// code spans and autolinks must come back exactly, other spans may differ in case (then the
// markup goes round the rewrite's wording), unless they hold a code span, autolink, link or
// image, which must come back unchanged and then keep their whole source.
//
// The reading follows CommonMark closely enough for what the Tiptap editor writes: code spans
// first, then links and images (bracket matching, no links in links), then emphasis matched by
// equal delimiter runs within the same link text. It is linear in the block's length.
import type { TextRange } from './markdown-blocks.js';

export type InlineKind = 'code' | 'autolink' | 'link' | 'image' | 'emphasis';

export interface InlineSpan {
  kind: InlineKind;
  /** The whole span, its markup included. */
  start: number;
  end: number;
  /** Its words: the text of emphasis, links and images; the content of code and autolinks. */
  inner: TextRange;
  /** The spans inside its text, in order. */
  children: InlineSpan[];
}

/** One stretch of a rewrite: the model's own text, or markup kept from the original. */
export interface Part {
  text: string;
  kept: boolean;
}

const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const AUTOLINK =
  /<(?:[A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/y;
const WHITESPACE = /\s/u;
const PUNCTUATION = /[\p{P}\p{S}]/u;
// A link's destination and title are cut off here, and brackets open deeper than this are text:
// no one writes such links, and the bounds keep hostile text linear.
const MAX_LINK_TAIL = 4096;
const MAX_OPEN_BRACKETS = 32;

interface Delimiter {
  pos: number;
  char: string;
  length: number;
  canOpen: boolean;
  canClose: boolean;
  /** 0 outside any link text; else the link (or image) whose text holds it. */
  scope: number;
}

/** The inline spans of one block whose lines are `lines` (content ranges of `text`). */
export function inlineSpans(text: string, lines: readonly TextRange[]): InlineSpan[] {
  // The block's lines joined by "\n", and where each starts in that string.
  const offsets: number[] = [];
  let v = '';
  for (const line of lines) {
    if (offsets.length > 0) v += '\n';
    offsets.push(v.length);
    v += text.slice(line.start, line.end);
  }
  const toText = (i: number): number => {
    // The last line starting at or before i.
    let lo = 0;
    let hi = offsets.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((offsets[mid] as number) <= i) lo = mid;
      else hi = mid - 1;
    }
    const k = lo;
    const line = lines[k] as TextRange;
    return line.start + Math.min(i - (offsets[k] as number), line.end - line.start);
  };
  return nest(scan(v)).map(function place(s): InlineSpan {
    return {
      ...s,
      start: toText(s.start),
      end: toText(s.end),
      inner: { start: toText(s.inner.start), end: toText(s.inner.end) },
      children: s.children.map(place),
    };
  });
}

/** Every span of `v`, flat and in no particular order. */
function scan(v: string): InlineSpan[] {
  const spans: InlineSpan[] = [];
  const delimiters: Delimiter[] = [];
  const brackets: { pos: number; image: boolean; active: boolean; delimitersFrom: number }[] = [];
  const closers = backtickRuns(v);
  let scopes = 0;
  let i = 0;
  while (i < v.length) {
    const c = v.charAt(i);
    if (c === '\\' && ASCII_PUNCTUATION.test(v.charAt(i + 1))) {
      i += 2;
    } else if (c === '`') {
      const n = runLength(v, i);
      const close = closers(n, i + n);
      if (close >= 0) spans.push(span('code', i, close + n, i + n, close));
      i = close >= 0 ? close + n : i + n;
    } else if (c === '<') {
      AUTOLINK.lastIndex = i;
      const link = AUTOLINK.exec(v);
      if (link) spans.push(span('autolink', i, i + link[0].length, i + 1, i + link[0].length - 1));
      i += link ? link[0].length : 1;
    } else if ((c === '[' || (c === '!' && v.charAt(i + 1) === '[')) && brackets.length < MAX_OPEN_BRACKETS) {
      const image = c === '!';
      brackets.push({ pos: image ? i + 1 : i, image, active: true, delimitersFrom: delimiters.length });
      i += image ? 2 : 1;
    } else if (c === ']') {
      const opener = brackets.pop();
      const end = opener?.active ? linkTail(v, i + 1) : -1;
      if (opener && end >= 0) {
        spans.push(
          span(opener.image ? 'image' : 'link', opener.image ? opener.pos - 1 : opener.pos, end, opener.pos + 1, i),
        );
        scopes++;
        for (const d of delimiters.slice(opener.delimitersFrom)) if (d.scope === 0) d.scope = scopes;
        if (!opener.image) for (const b of brackets) if (!b.image) b.active = false;
      }
      i = end >= 0 ? end : i + 1;
    } else if (c === '*' || c === '_' || c === '~') {
      const n = runLength(v, i);
      const d = delimiter(v, i, n);
      if (d) delimiters.push(d);
      i += n;
    } else {
      i++;
    }
  }
  matchEmphasis(delimiters, spans);
  return spans;
}

const span = (kind: InlineKind, start: number, end: number, innerStart: number, innerEnd: number): InlineSpan => ({
  kind,
  start,
  end,
  inner: { start: innerStart, end: innerEnd },
  children: [],
});

function runLength(v: string, i: number): number {
  let j = i;
  while (v.charAt(j) === v.charAt(i)) j++;
  return j - i;
}

/** For each run length, where the next backtick run of exactly that length starts (queries only move forward). */
function backtickRuns(v: string): (length: number, from: number) => number {
  const runs = new Map<number, number[]>();
  for (const m of v.matchAll(/`+/g)) {
    const list = runs.get(m[0].length) ?? [];
    list.push(m.index);
    runs.set(m[0].length, list);
  }
  const next = new Map<number, number>();
  return (length, from) => {
    const list = runs.get(length) ?? [];
    let k = next.get(length) ?? 0;
    while (k < list.length && (list[k] as number) < from) k++;
    next.set(length, k);
    return list[k] ?? -1;
  };
}

/** A delimiter run at i of length n, or null when it can neither open nor close. */
function delimiter(v: string, i: number, n: number): Delimiter | null {
  const char = v.charAt(i);
  if (n > 3 || (char === '~' && n > 2)) return null;
  const before = i > 0 ? v.charAt(i - 1) : ' ';
  const after = i + n < v.length ? v.charAt(i + n) : ' ';
  const left =
    !WHITESPACE.test(after) && (!PUNCTUATION.test(after) || WHITESPACE.test(before) || PUNCTUATION.test(before));
  const right =
    !WHITESPACE.test(before) && (!PUNCTUATION.test(before) || WHITESPACE.test(after) || PUNCTUATION.test(after));
  const canOpen = char === '_' ? left && (!right || PUNCTUATION.test(before)) : left;
  const canClose = char === '_' ? right && (!left || PUNCTUATION.test(after)) : right;
  return canOpen || canClose ? { pos: i, char, length: n, canOpen, canClose, scope: 0 } : null;
}

/** Where a link's `(destination "title")` or `[label]` after its text ends, or -1 when none follows. */
function linkTail(v: string, p: number): number {
  const limit = Math.min(v.length, p + MAX_LINK_TAIL);
  if (v.charAt(p) === '[') {
    for (let i = p + 1; i < limit; i++) {
      const c = v.charAt(i);
      if (c === '\\') i++;
      else if (c === '[') return -1;
      else if (c === ']') return i + 1;
    }
    return -1;
  }
  if (v.charAt(p) !== '(') return -1;
  let i = skipSpace(v, p + 1);
  if (v.charAt(i) === '<') {
    for (i++; i < limit && v.charAt(i) !== '>'; i++) {
      if (v.charAt(i) === '\\') i++;
      else if (v.charAt(i) === '<' || v.charAt(i) === '\n') return -1;
    }
    i++;
  } else {
    for (let depth = 0; i < limit; i++) {
      const c = v.charAt(i);
      if (c === '\\') i++;
      else if (c === '(' && ++depth > 32) return -1;
      else if (c === ')' && depth-- === 0) break;
      else if (WHITESPACE.test(c)) break;
    }
  }
  const afterDestination = i;
  i = skipSpace(v, i);
  const quote = v.charAt(i);
  if (i > afterDestination && (quote === '"' || quote === "'" || quote === '(')) {
    const close = quote === '(' ? ')' : quote;
    for (i++; i < limit && v.charAt(i) !== close; i++) {
      if (v.charAt(i) === '\\') i++;
      else if (quote === '(' && v.charAt(i) === '(') return -1;
    }
    i = skipSpace(v, i + 1);
  }
  return i < limit && v.charAt(i) === ')' ? i + 1 : -1;
}

function skipSpace(v: string, i: number): number {
  let j = i;
  while (j < v.length && WHITESPACE.test(v.charAt(j))) j++;
  return j;
}

/**
 * Pairs delimiter runs of the same character and length, closer to nearest opener, within one
 * link text (or outside all); what a pair encloses cannot pair with what lies outside it.
 */
function matchEmphasis(delimiters: readonly Delimiter[], spans: InlineSpan[]): void {
  const scopes = new Map<number, Map<string, Delimiter[]>>();
  for (const d of delimiters) {
    const openers = scopes.get(d.scope) ?? new Map<string, Delimiter[]>();
    scopes.set(d.scope, openers);
    const key = d.char + d.length;
    const opener = d.canClose ? openers.get(key)?.pop() : undefined;
    if (opener) {
      spans.push(span('emphasis', opener.pos, d.pos + d.length, opener.pos + d.length, d.pos));
      for (const stack of openers.values()) while ((stack.at(-1)?.pos ?? -1) > opener.pos) stack.pop();
    } else if (d.canOpen) {
      const stack = openers.get(key) ?? [];
      stack.push(d);
      openers.set(key, stack);
    }
  }
}

/** The spans as a tree, top level first; a span that overlaps another without nesting is dropped. */
function nest(spans: InlineSpan[]): InlineSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const top: InlineSpan[] = [];
  const open: InlineSpan[] = [];
  for (const s of sorted) {
    while (open.length > 0 && (open.at(-1) as InlineSpan).end <= s.start) open.pop();
    const parent = open.at(-1);
    if (parent && s.end > parent.end) continue;
    (parent ? parent.children : top).push(s);
    open.push(s);
  }
  return top;
}

const withoutEscapes = (s: string): string => s.replace(/\\([!-/:-@[-`{-~])/g, '$1');

/** A code span's content as CommonMark reads it: line breaks as spaces, one padding space off. */
function codeContent(raw: string): string {
  const s = raw.replace(/\r\n|\r|\n/g, ' ');
  return s.length > 1 && s.startsWith(' ') && s.endsWith(' ') && s.trim() !== '' ? s.slice(1, -1) : s;
}

/** The words of one span. */
export function spanWords(text: string, s: InlineSpan): string {
  if (s.kind === 'code') return codeContent(text.slice(s.inner.start, s.inner.end));
  if (s.kind === 'autolink') return text.slice(s.inner.start, s.inner.end);
  return plainText(text, s.inner, s.children);
}

/** The words of `range`, which holds `spans` (in order): markup and escapes taken off. */
export function plainText(text: string, range: TextRange, spans: readonly InlineSpan[]): string {
  let out = '';
  let at = range.start;
  for (const s of spans) {
    out += withoutEscapes(text.slice(at, s.start)) + spanWords(text, s);
    at = s.end;
  }
  return out + withoutEscapes(text.slice(at, range.end));
}

const holdsAnchor = (s: InlineSpan): boolean => s.children.some((c) => c.kind !== 'emphasis' || holdsAnchor(c));
const isAtomic = (s: InlineSpan): boolean => s.kind === 'code' || s.kind === 'autolink';
const collapse = (s: string): string => s.trim().replace(/\s+/gu, ' ');

/** Where `words` come back in `written` at or after `from`, at word boundaries, whitespace free. */
function findWords(written: string, words: string, from: number, ignoreCase: boolean): TextRange | null {
  const tokens = words.split(/\s+/u).filter(Boolean);
  if (tokens.length === 0) return { start: from, end: from };
  const body = tokens.map((t) => t.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')).join('\\s+');
  const lead = /^[\p{L}\p{N}]/u.test(tokens[0] as string) ? '(?<![\\p{L}\\p{N}])' : '';
  const tail = /[\p{L}\p{N}]$/u.test(tokens.at(-1) as string) ? '(?![\\p{L}\\p{N}])' : '';
  const pattern = new RegExp(lead + body + tail, ignoreCase ? 'giu' : 'gu');
  pattern.lastIndex = from;
  const m = pattern.exec(written);
  return m ? { start: m.index, end: m.index + m[0].length } : null;
}

/** The rewrite `written` with the markup of `spans` (a piece's top-level spans) back on its words. */
export function reapplySpans(text: string, written: string, spans: readonly InlineSpan[]): Part[] | null {
  const parts: Part[] = [];
  const queue = [...spans];
  let cursor = 0;
  for (let s = queue.shift(); s; s = queue.shift()) {
    const words = spanWords(text, s);
    const loose = !isAtomic(s) && !holdsAnchor(s);
    const hit = findWords(written, words, cursor, false) ?? (loose ? findWords(written, words, cursor, true) : null);
    if (!hit) {
      if (s.kind !== 'emphasis') return null;
      queue.unshift(...s.children);
      continue;
    }
    const found = collapse(written.slice(hit.start, hit.end));
    const source = text.slice(s.start, s.end);
    const kept =
      !loose || found === collapse(words)
        ? source
        : text.slice(s.start, s.inner.start) + found + text.slice(s.inner.end, s.end);
    parts.push({ text: written.slice(cursor, hit.start), kept: false }, { text: kept, kept: true });
    cursor = hit.end;
  }
  parts.push({ text: written.slice(cursor), kept: false });
  return parts;
}
