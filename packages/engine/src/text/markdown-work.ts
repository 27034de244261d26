// What remark's parser (micromark) would make of a Markdown text, estimated in one linear pass
// before it parses, so that a text it would take minutes over is refused at once. micromark's
// work grows faster than the text in three places, each bounded here by an upper estimate:
//
// - Inline markup, within one paragraph (or heading, or table row): each closing emphasis,
//   strikethrough or `]` marker looks back over the paragraph's tokens for its opener, and each
//   match splices them and goes over what it encloses again; a `]` also copies its label, and a
//   run of backticks looks ahead for a closing run as long. 40,000 `*` in 80 KB ran 50-75 s.
// - Containers (block quotes, list items) over the document: each one that closes copies every
//   token of the document read so far. 8,000 quotes in 40 KB ran 15 s.
// - Containers opened on one line: 1,000 nested list markers on a line ran 0.4 s, 10,000 past a
//   minute.
//
// The estimate is built never to fall below micromark's work: paragraphs are split only where
// Markdown always ends one (a blank line; a heading, a fence or a list item that may interrupt a
// paragraph), and every marker that could take part is counted wherever it stands (in code, in
// HTML). The cost of a step differs between shapes; limits.ts sets the bounds by the dearest.
import {
  ExtractionLimitError,
  MAX_MARKDOWN_BLOCK_WORK,
  MAX_MARKDOWN_DEPTH,
  MAX_MARKDOWN_INLINE_WORK,
} from './limits.js';

export interface MarkdownWork {
  /** Most containers one line opens or continues. */
  depth: number;
  /**
   * Inline steps: for each paragraph, its closing markers times its tokens and lines, plus the
   * characters its labels copy and its backtick runs look ahead over.
   */
  inline: number;
  /** Tokens copied as containers close: for each container opened, the document's tokens before it. */
  block: number;
}

const TAB = 0x09;
const SPACE = 0x20;
const BACKTICK = 0x60;
const TILDE = 0x7e;

/** What the start of a line stands for: a quote marker, a list item marker, or indentation that may continue a list item. */
enum Token {
  Quote,
  Item,
  Indent,
}

/** Characters that start an inline construct in micromark (or GFM's autolinks): each may be a token of its own. */
const STARTS = new Uint8Array(128);
for (const c of '!&*_<[\\]`~.:@') STARTS[c.charCodeAt(0)] = 1;
const isAttention = (c: number) => c === 0x2a || c === 0x5f || c === TILDE;
const isAsciiPunctuation = (c: number) =>
  (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
const isSpaceOrTab = (c: number) => c === SPACE || c === TAB;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Estimates micromark's work on `markdown`, stopping once it is past `limits`. */
export function markdownWork(markdown: string, limits?: MarkdownWork): MarkdownWork {
  // micromark ends lines at \r as well as \n.
  const text = markdown.includes('\r') ? markdown.replace(/\r\n?/g, '\n') : markdown;
  const n = text.length;
  const work: MarkdownWork = { depth: 0, inline: 0, block: 0 };

  // The paragraph being read: its closing markers, tokens and lines, the labels and backtick runs
  // still open in it, and the characters copied or looked ahead over.
  let closers = 0;
  let tokens = 0;
  let lines = 0;
  let scanned = 0;
  const labels: number[] = [];
  const openRuns = new Map<number, number>();
  const inlineSoFar = () => work.inline + closers * (tokens + lines) + scanned;
  const endParagraph = (at: number) => {
    for (const start of openRuns.values()) scanned += at - start;
    work.inline = inlineSoFar();
    closers = 0;
    tokens = 0;
    lines = 0;
    scanned = 0;
    labels.length = 0;
    openRuns.clear();
  };

  // The containers the previous line opened or continued (quotes end at a blank line, list items
  // may go on past it), and the document's tokens so far as micromark counts them: about three a
  // line and five more for each container marker on it, two for a blank line.
  let previous: Token[] = [];
  let documentTokens = 0;
  // How many list items may still be open, so how many levels indentation may continue.
  let openItems = 0;
  let afterBlank = true;

  for (let lineStart = 0; lineStart <= n; ) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = n;

    // The line's containers.
    const line: Token[] = [];
    let i = lineStart;
    let column = 0;
    let leading = -1;
    let markers = 0;
    let quoted = false;
    let indents = 0;
    let firstItem: ListMarker | null = null;
    let afterItem = false;
    while (!limits || line.length <= limits.depth) {
      let width = 0;
      while (i < lineEnd && isSpaceOrTab(text.charCodeAt(i))) {
        width += text.charCodeAt(i) === TAB ? 4 - ((column + width) % 4) : 1;
        i += 1;
      }
      column += width;
      if (leading < 0) leading = width;
      // Spaces after an item marker belong to it; elsewhere each two columns may continue an item.
      if (!afterItem) {
        const room = Math.min(width >> 1, openItems - indents);
        for (let k = 0; k < room; k += 1) line.push(Token.Indent);
        indents += Math.max(0, room);
      }
      afterItem = false;
      if (i < lineEnd && text.charCodeAt(i) === 0x3e) {
        line.push(Token.Quote);
        markers += 1;
        quoted = true;
        i += 1;
        column += 1;
        continue;
      }
      const marker = listMarker(text, i, lineEnd);
      if (!marker) break;
      if (markers === 0) firstItem = marker;
      line.push(Token.Item);
      markers += 1;
      column += marker.end - i;
      i = marker.end;
      afterItem = true;
    }

    if (markers === 0 && i >= lineEnd) {
      // A blank line ends the paragraph and every quote.
      endParagraph(lineStart);
      const quote = previous.indexOf(Token.Quote);
      if (quote >= 0) previous = previous.slice(0, quote);
      afterBlank = true;
      documentTokens += 2;
      lineStart = lineEnd + 1;
      continue;
    }

    // Depth, and the list items indentation may continue: after a blank line an unindented line
    // closes every item but its own.
    work.depth = Math.max(work.depth, line.length);
    let itemsHere = 0;
    for (const t of line) if (t !== Token.Quote) itemsHere += 1;
    if (afterBlank && leading === 0) openItems = itemsHere;
    openItems = Math.max(openItems, itemsHere);
    afterBlank = false;

    // Containers this line opens: those past what it continues from the previous line. A list
    // marker where the previous line had an item or indentation is that item's sibling.
    let continued = 0;
    while (continued < line.length && continued < previous.length) {
      const mine = line[continued];
      if ((mine === Token.Quote) !== (previous[continued] === Token.Quote)) break;
      continued += 1;
      if (mine === Token.Item) break;
    }
    work.block += (line.length - continued) * documentTokens;
    documentTokens += 3 + 5 * line.length;
    previous = line;

    // A list item that may interrupt a paragraph, a heading or a fence, indented less than four
    // columns, always starts a new block, within list items or not, so the paragraph before it
    // ends. (Indented further it may go on a paragraph at the top; lines in quotes may be lazy.)
    const interrupts =
      !quoted &&
      leading <= 3 &&
      (firstItem ? firstItem.mayInterrupt && firstItem.hasContent : startsBlock(text, i, lineEnd));
    if (interrupts) endParagraph(lineStart);

    // The line's inline markers.
    for (let k = i; k < lineEnd; k += 1) {
      const c = text.charCodeAt(k);
      if (c >= 128 || STARTS[c] === 0) continue;
      tokens += 1;
      if (c === 0x5c) {
        if (k + 1 < lineEnd && isAsciiPunctuation(text.charCodeAt(k + 1))) k += 1;
      } else if (isAttention(c)) {
        while (k + 1 < lineEnd && text.charCodeAt(k + 1) === c) k += 1;
        closers += 1;
      } else if (c === 0x5b) {
        labels.push(k);
      } else if (c === 0x5d) {
        closers += 1;
        const start = labels.pop();
        if (start !== undefined) scanned += k - start;
      } else if (c === BACKTICK) {
        const start = k;
        while (k + 1 < lineEnd && text.charCodeAt(k + 1) === BACKTICK) k += 1;
        const length = k - start + 1;
        const opener = openRuns.get(length);
        if (opener === undefined) openRuns.set(length, start);
        else {
          scanned += start - opener;
          openRuns.delete(length);
        }
      }
    }
    lines += 1;
    if (limits && (work.depth > limits.depth || inlineSoFar() > limits.inline || work.block > limits.block)) break;
    lineStart = lineEnd + 1;
  }
  endParagraph(n);
  return work;
}

interface ListMarker {
  /** Just past the marker and the one space after it. */
  end: number;
  /** A bullet, or a number 1: the only items that may interrupt a paragraph, given content. */
  mayInterrupt: boolean;
  hasContent: boolean;
}

function listMarker(text: string, i: number, end: number): ListMarker | null {
  if (i >= end) return null;
  const c = text.charCodeAt(i);
  let j = i;
  let mayInterrupt = true;
  if (c === 0x2d || c === 0x2b || c === 0x2a) j = i + 1;
  else {
    while (j < end && j - i < 9 && isDigit(text.charCodeAt(j))) j += 1;
    if (j === i || j >= end || (text.charCodeAt(j) !== 0x2e && text.charCodeAt(j) !== 0x29)) return null;
    mayInterrupt = j - i === 1 && c === 0x31;
    j += 1;
  }
  if (j < end && !isSpaceOrTab(text.charCodeAt(j))) return null;
  let content = j;
  while (content < end && isSpaceOrTab(text.charCodeAt(content))) content += 1;
  return { end: Math.min(j + 1, end), mayInterrupt, hasContent: content < end };
}

/** An ATX heading or a code fence: both end any paragraph. */
function startsBlock(text: string, i: number, end: number): boolean {
  const c = text.charCodeAt(i);
  let j = i;
  while (j < end && text.charCodeAt(j) === c) j += 1;
  if (c === 0x23) return j - i <= 6 && (j >= end || isSpaceOrTab(text.charCodeAt(j)));
  if ((c !== BACKTICK && c !== TILDE) || j - i < 3) return false;
  // A backtick fence's info string may not hold a backtick; otherwise the line is inline code.
  if (c === BACKTICK) for (; j < end; j += 1) if (text.charCodeAt(j) === BACKTICK) return false;
  return true;
}

/** Refuses a Markdown text that micromark would nest too deep or take too long over (see limits.ts). */
export function checkMarkdownWork(text: string): void {
  const work = markdownWork(text, {
    depth: MAX_MARKDOWN_DEPTH,
    inline: MAX_MARKDOWN_INLINE_WORK,
    block: MAX_MARKDOWN_BLOCK_WORK,
  });
  if (work.depth > MAX_MARKDOWN_DEPTH) {
    throw new ExtractionLimitError(
      `its lists and quotes nest more than ${MAX_MARKDOWN_DEPTH} deep on one line; ` +
        'save it as plain text (.txt) and upload that',
    );
  }
  if (work.inline > MAX_MARKDOWN_INLINE_WORK) {
    throw new ExtractionLimitError(
      'a paragraph holds more emphasis, link or code markers than the Markdown reader can pair in time; ' +
        'save it as plain text (.txt), or break the paragraph up, and upload that',
    );
  }
  if (work.block > MAX_MARKDOWN_BLOCK_WORK) {
    throw new ExtractionLimitError(
      'it opens more quotes and lists, for its length, than the Markdown reader can close in time; ' +
        'save it as plain text (.txt) and upload that',
    );
  }
}
