// Markdown through the rewrite: the structure of a text comes back exactly, only its prose is the
// Voice's. Each chunk is split into structure, kept byte for byte, and prose pieces, each rewritten
// on its own and put back in its place.
//
//   planChunks(text, chunks) -> null, or per chunk its parts:
//     null                  the text has no markdown: each chunk is rewritten whole, as plain text
//                           always was
//     [part, ...]           in order; stitched, the original chunk text:
//       "string"            structure: line prefixes, line breaks, blank lines, code blocks, ...
//       { plain, writer }   a piece of prose: `plain` is what the model reads (the words, without
//                           markup); writer() turns what the model writes into the piece's text
//
//   "## Getting *there*\n\n- Take the `7:10` train\n  from the city."
//     "## "        { plain: "Getting there" }
//     "\n\n- "     { plain: "Take the 7:10 train\nfrom the city." }      (one item, two lines)
//
// What makes the structure of a line, and which lines read as one, is markdown-blocks.ts; inline
// markup (emphasis, links, code spans) is markdown-inline.ts. A piece is the prose of one block
// within one chunk: one model call each, so a heading, a list item or a paragraph can never lose
// its prefix or run into the next. Its text comes back as follows:
//   - The markup goes back on the same words (reapplySpans). When a code span's, a link's or an
//     image's words are not in the rewrite, the piece keeps its original text: a URL or a code
//     span is never lost, and a guess at where it belongs would read worse than the original.
//   - Whitespace runs become one space and the words are laid out over the piece's lines in the
//     proportions of the original lines; a piece of n lines needs n words, else it too keeps its
//     original text. A line that starts with the model's text gets a backslash before anything
//     that would read as a block marker there (`#`, `-`, `1.`, `>` ...).
//   - An inline span that runs over a line break or a chunk's edge is kept as structure whole:
//     its markup has no other place to go.
//   - A piece without letters or digits is structure too: nothing to rewrite.
// A one-line piece without inline markup streams as it is written (OneLineWriter); any other
// piece is put together when its rewrite ends, so every delta a chunk streams is final.
import { type ProseBlock, proseBlocks, type TextRange } from './markdown-blocks.js';
import { type InlineSpan, inlineSpans, type Part, plainText, reapplySpans } from './markdown-inline.js';

/** Turns a model's text, given as it streams, into a piece's text; every string returned is final. */
export interface PieceWriter {
  push(delta: string): string;
  end(): string;
}

export interface ProsePiece {
  /** What the model rewrites: the piece's words, its lines joined by "\n". */
  plain: string;
  writer(): PieceWriter;
}

export type ChunkPart = string | ProsePiece;

interface Block extends ProseBlock {
  /** Its top-level inline spans, in order. */
  spans: InlineSpan[];
  /** Those that run over a line break, in order. */
  overBreaks: InlineSpan[];
}

/** A piece of prose on one line: trimmed, inside one chunk, clear of kept spans. */
interface Fragment extends TextRange {
  block: Block;
  line: number;
  /** It starts where the line's content does (right after the line's prefix). */
  atLineStart: boolean;
}

/**
 * How each chunk of `text` is rewritten, or null when the text has no markdown (see the top of
 * this file). One chunk with markdown plans them all: a chunk of plain paragraphs in a markdown
 * text must not lose its paragraph breaks, nor gain a block marker, either.
 */
export function planChunks(text: string, chunks: readonly TextRange[]): ChunkPart[][] | null {
  const blocks: Block[] = proseBlocks(text).map((b) => {
    const spans = inlineSpans(text, b.lines);
    const overBreaks = spans.filter(
      (s) => !overlapping(b.lines, { start: s.start, end: s.start + 1 }).some((l) => within(s, l)),
    );
    return { ...b, spans, overBreaks };
  });
  let first = 0;
  let markdown = false;
  const plans = chunks.map((chunk) => {
    while (first < blocks.length && ((blocks[first] as Block).lines.at(-1) as TextRange).end <= chunk.start) first++;
    const inChunk: Block[] = [];
    for (let b = first; b < blocks.length && ((blocks[b] as Block).lines[0] as TextRange).start < chunk.end; b++) {
      inChunk.push(blocks[b] as Block);
    }
    const { groups, spans } = proseIn(text, chunk, inChunk);
    // Markdown: inline markup, or anything but whitespace around the prose.
    const gaps = [
      chunk.start,
      ...groups.flatMap((g) => [(g[0] as Fragment).start, (g.at(-1) as Fragment).end]),
      chunk.end,
    ];
    markdown ||= spans > 0;
    for (let i = 0; i < gaps.length && !markdown; i += 2) markdown = /\S/.test(text.slice(gaps[i], gaps[i + 1]));
    return { chunk, groups };
  });
  return markdown ? plans.map(({ chunk, groups }) => planChunk(text, chunk, groups)) : null;
}

function planChunk(text: string, chunk: TextRange, groups: readonly Fragment[][]): ChunkPart[] {
  const parts: ChunkPart[] = [];
  const keep = (structure: string) => {
    if (typeof parts.at(-1) === 'string') parts[parts.length - 1] += structure;
    else if (structure) parts.push(structure);
  };
  let at = chunk.start;
  for (const group of groups) {
    const piece = prosePiece(text, group);
    // Without words it stays in the structure around it.
    if (!piece) continue;
    keep(text.slice(at, (group[0] as Fragment).start));
    parts.push(piece);
    at = (group.at(-1) as Fragment).end;
  }
  keep(text.slice(at, chunk.end));
  return parts;
}

/**
 * The prose of `blocks` inside `chunk`, as fragments grouped into pieces (consecutive lines of one
 * block), and how many inline spans the chunk has.
 */
function proseIn(text: string, chunk: TextRange, blocks: readonly Block[]): { groups: Fragment[][]; spans: number } {
  const groups: Fragment[][] = [];
  let spans = 0;
  for (const block of blocks) {
    const inChunk = overlapping(block.spans, chunk);
    spans += inChunk.length;
    const edges = inChunk.filter((s) => straddles(s, chunk));
    const kept = [...overlapping(block.overBreaks, chunk), ...edges].sort((a, b) => a.start - b.start);
    for (let index = firstEndingAfter(block.lines, chunk.start); index < block.lines.length; index++) {
      const line = block.lines[index] as TextRange;
      if (line.start >= chunk.end) break;
      const range = { start: Math.max(line.start, chunk.start), end: Math.min(line.end, chunk.end) };
      for (const r of without(range, overlapping(kept, range))) {
        const t = trim(text, r);
        if (!t) continue;
        const fragment = { ...t, block, line: index, atLineStart: t.start === line.start };
        const group = groups.at(-1);
        const last = group?.at(-1);
        const continues = last?.block === block && index === last.line + 1 && last.end === block.lines[last.line]?.end;
        if (group && continues && fragment.atLineStart) group.push(fragment);
        else groups.push([fragment]);
      }
    }
  }
  return { groups, spans };
}

const within = (inner: TextRange, outer: TextRange): boolean => inner.start >= outer.start && inner.end <= outer.end;

/** The index of the first of `sorted` (ranges in order, disjoint) that ends after `pos`. */
function firstEndingAfter(sorted: readonly TextRange[], pos: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as TextRange).end <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The ranges of `sorted` (in order, disjoint) that overlap `range`. */
function overlapping<T extends TextRange>(sorted: readonly T[], range: TextRange): T[] {
  const out: T[] = [];
  for (let i = firstEndingAfter(sorted, range.start); i < sorted.length && (sorted[i] as T).start < range.end; i++) {
    out.push(sorted[i] as T);
  }
  return out;
}

const straddles = (s: TextRange, chunk: TextRange): boolean =>
  (s.start < chunk.start && s.end > chunk.start) || (s.start < chunk.end && s.end > chunk.end);

/** `range` less the (ordered, disjoint) `holes`. */
function without(range: TextRange, holes: readonly TextRange[]): TextRange[] {
  const out: TextRange[] = [];
  let at = range.start;
  for (const hole of holes) {
    if (hole.end <= at || hole.start >= range.end) continue;
    if (hole.start > at) out.push({ start: at, end: hole.start });
    at = Math.max(at, hole.end);
  }
  if (at < range.end) out.push({ start: at, end: range.end });
  return out;
}

function trim(text: string, r: TextRange): TextRange | null {
  let start = r.start;
  let end = r.end;
  while (start < end && /\s/.test(text.charAt(start))) start++;
  while (end > start && /\s/.test(text.charAt(end - 1))) end--;
  return start < end ? { start, end } : null;
}

/** The piece of prose made of `fragments` (consecutive lines of one block), or null when it has no words. */
function prosePiece(text: string, fragments: readonly Fragment[]): ProsePiece | null {
  const spansOf = (f: Fragment) => overlapping(f.block.spans, f).filter((s) => within(s, f));
  const plain = fragments.map((f) => plainText(text, f, spansOf(f))).join('\n');
  if (!/[\p{L}\p{N}]/u.test(plain)) return null;
  const spans = fragments.flatMap(spansOf);
  const first = fragments[0] as Fragment;
  const original = text.slice(first.start, (fragments.at(-1) as Fragment).end);
  if (fragments.length === 1 && spans.length === 0) {
    return { plain, writer: () => new OneLineWriter(original, first.atLineStart) };
  }
  const render = (written: string): string => {
    const parts = reapplySpans(text, written, spans);
    const lines = parts && layOut(words(parts), fragments);
    if (!lines) return original;
    return lines
      .map(
        (line, k) =>
          (k === 0 ? '' : text.slice((fragments[k - 1] as Fragment).end, (fragments[k] as Fragment).start)) + line,
      )
      .join('');
  };
  return {
    plain,
    writer: () => {
      let written = '';
      return {
        push: (delta) => {
          written += delta;
          return '';
        },
        end: () => render(written),
      };
    },
  };
}

/** A word of a rewrite: the model's text and kept markup with no whitespace between them. */
interface Word {
  text: string;
  /** It starts with the model's text (not kept markup). */
  byModel: boolean;
}

function words(parts: readonly Part[]): Word[] {
  const out: Word[] = [];
  let current: Word | null = null;
  for (const part of parts) {
    for (const piece of part.kept ? [part.text] : part.text.split(/(\s+)/u)) {
      if (piece === '') continue;
      if (!part.kept && /^\s/u.test(piece)) {
        current = null;
        continue;
      }
      if (!current) {
        current = { text: '', byModel: !part.kept };
        out.push(current);
      }
      current.text += piece;
    }
  }
  return out;
}

/** The words over as many lines as `fragments`, in the proportions of their lengths; null when too few. */
function layOut(all: readonly Word[], fragments: readonly Fragment[]): string[] | null {
  if (all.length < fragments.length) return null;
  const line = (ws: readonly Word[], f: Fragment): string => {
    const joined = ws.map((w) => w.text).join(' ');
    return f.atLineStart && ws[0]?.byModel ? escapeLineStart(joined) : joined;
  };
  const total = fragments.reduce((sum, f) => sum + f.end - f.start, 0);
  const size = (w: Word) => w.text.length + 1;
  const length = all.reduce((sum, w) => sum + size(w), 0);
  const lines: string[] = [];
  let from = 0;
  let original = 0;
  let laid = 0;
  fragments.slice(0, -1).forEach((f, k) => {
    original += f.end - f.start;
    const target = (original / total) * length;
    let to = from + 1;
    laid += size(all[from] as Word);
    // Another word goes on this line while its middle falls before the target and enough are left.
    while (to < all.length - (fragments.length - 1 - k) && laid + size(all[to] as Word) / 2 <= target) {
      laid += size(all[to] as Word);
      to++;
    }
    lines.push(line(all.slice(from, to), f));
    from = to;
  });
  lines.push(line(all.slice(from), fragments.at(-1) as Fragment));
  return lines;
}

const ORDERED_MARKER = /^(\d{1,9})([.)])(?=[ \t]|$)/;
const MARKER_CHARACTER = /^[#>*+\-=_~`]/;
// A start that may yet turn into an ordered-list marker.
const UNDECIDED_START = /^\d{0,9}[.)]?$/;

/** `line` (the model's text at the start of a line) with a backslash before a would-be block marker. */
export function escapeLineStart(line: string): string {
  if (ORDERED_MARKER.test(line)) return line.replace(ORDERED_MARKER, '$1\\$2');
  return MARKER_CHARACTER.test(line) ? `\\${line}` : line;
}

/**
 * The text of a one-line piece without markup, as it streams: whitespace runs become one space,
 * none leads or trails, and at the start of a line a would-be block marker is escaped (the start
 * is held back until that is decided); a rewrite without words gives the original back. The same
 * as laying the whole rewrite out at once.
 */
export class OneLineWriter implements PieceWriter {
  readonly #original: string;
  /** Text held until the line's start is decided; null once it is, or when not at a line start. */
  #head: string | null;
  #started = false;
  #space = false;

  constructor(original: string, atLineStart: boolean) {
    this.#original = original;
    this.#head = atLineStart ? '' : null;
  }

  push(delta: string): string {
    let out = '';
    for (const ch of delta) {
      if (/\s/u.test(ch)) {
        this.#space = this.#started;
        continue;
      }
      out += (this.#space ? ' ' : '') + ch;
      this.#space = false;
      this.#started = true;
    }
    return this.#release(out, false);
  }

  end(): string {
    return this.#started ? this.#release('', true) : this.#original;
  }

  #release(out: string, final: boolean): string {
    if (this.#head === null) return out;
    this.#head += out;
    if (!final && UNDECIDED_START.test(this.#head)) return '';
    const head = escapeLineStart(this.#head);
    this.#head = null;
    return head;
  }
}
