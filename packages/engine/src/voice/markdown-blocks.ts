// The block structure of a markdown text as Convert keeps it: which part of each line is prose the
// Voice may rewrite, and which is structure that comes back byte for byte.
//
//   line     = prefix · content · suffix · line break
//   prefix   indentation, quote markers (`>`), list markers (`-` `*` `+` `1.` `1)`) with a task
//            box (`[ ]`, `[x]`), heading hashes (`#`..`######`)
//   content  the prose: from its first to its last non-whitespace character
//   suffix   trailing whitespace, a heading's closing hashes, a hard break's backslash
//
// Lines that are structure whole: blank lines (and quote markers alone), fenced code from fence to
// fence, indented code, thematic breaks, setext underlines, table rows, link reference definitions
// and HTML blocks. Indented code counts only in a text that has other markdown (a heading, list,
// quote or fence): a plain text's tab-indented paragraphs are prose, as they always were.
//
// A block is the prose of lines that read as one: a heading's line; a list item's line with its
// continuation lines; a paragraph's lines at one quote depth.
//
//   proseBlocks(text) -> [{ lines: [{ start, end }, ...] }, ...]   content ranges, in text order
//
// Every character outside a content range is structure. What the Tiptap editor writes (atx
// headings, dash bullets, numbered items, quotes, fences) is read exactly; anything odder is kept
// as structure or read as prose, never dropped.

export interface TextRange {
  start: number;
  end: number;
}

export interface ProseBlock {
  /** The content range of each of the block's lines, in order; none is empty. */
  lines: TextRange[];
}

const LINE = /[^\r\n]*(?:\r\n|\n|\r|$)/g;
// Quote markers, then list markers with an optional task box, then heading hashes.
const PREFIX =
  /^[ \t]*((?:>[ \t]*)*)((?:(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)(?:\[[ xX]\](?:[ \t]+|$))?)*)(#{1,6}(?:[ \t]+|$))?/;
const QUOTES_ONLY = /^[ \t]*(?:>[ \t]*)*/;
const FENCE_OPEN = /^(`{3,}|~{3,})/;
const FENCE_CLOSE = /^(`{3,}|~{3,})[ \t]*$/;
const THEMATIC_BREAK = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const SETEXT_UNDERLINE = /^(?:=+|-+)[ \t]*$/;
const WHOLE_LINE_STRUCTURE = /^(?:\||\[[^\]]+\]:[ \t]*\S)/;
const HTML_BLOCK = /^<(?:[A-Za-z][A-Za-z0-9-]*(?:[ \t/>]|$)|\/[A-Za-z][A-Za-z0-9-]*[ \t]*>|!--)/;
const HEADING_CLOSE = /[ \t]+#+[ \t]*$/;
const MARKDOWN_DOCUMENT = /^[ \t]*(?:>|[-*+][ \t]|\d{1,9}[.)][ \t]|#{1,6}[ \t]|```|~~~)/m;

/** Columns of leading whitespace, a tab reaching the next multiple of four. */
function indentColumns(line: string): number {
  let columns = 0;
  for (const ch of line) {
    if (ch === ' ') columns++;
    else if (ch === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

/** The prose blocks of `text` (see the top of this file). */
export function proseBlocks(text: string): ProseBlock[] {
  const markdown = MARKDOWN_DOCUMENT.test(text);
  const blocks: ProseBlock[] = [];
  let block: ProseBlock | null = null;
  let blockQuotes = '';
  let fence: { char: string; length: number } | null = null;
  let html = false;
  let listIndent = 0;
  // What the line before was: a blank line (or the start), prose, or other structure.
  let previous: 'blank' | 'prose' | 'code' | 'other' = 'blank';

  for (const m of text.matchAll(LINE)) {
    if (m[0] === '' && m.index === text.length && text.length > 0) break;
    const start = m.index;
    const raw = m[0].replace(/[\r\n]+$/, '');
    const kind = classify(raw);
    previous = kind;
    if (kind !== 'prose') {
      block = null;
      continue;
    }

    const prefix = PREFIX.exec(raw) as RegExpExecArray;
    const quotes = (prefix[1] ?? '').replace(/[ \t]/g, '');
    const listed = (prefix[2] ?? '') !== '';
    const heading = prefix[3] !== undefined;
    let contentEnd = raw.replace(/[ \t]+$/, '').length;
    if (heading) contentEnd = raw.slice(0, contentEnd).replace(HEADING_CLOSE, '').length;
    const range = { start: start + prefix[0].length, end: start + contentEnd };
    if (listed) listIndent = prefix[0].length;
    if (heading || listed || !block || quotes !== blockQuotes) {
      block = { lines: [] };
      blockQuotes = quotes;
      blocks.push(block);
    }
    block.lines.push(range);
    if (heading) block = null;
  }
  // A backslash ending a line inside a block is a hard break: structure.
  for (const b of blocks) {
    for (const line of b.lines.slice(0, -1)) {
      if (text.charAt(line.end - 1) === '\\' && line.end - 1 > line.start) line.end--;
    }
  }
  return blocks;

  function classify(raw: string): 'blank' | 'prose' | 'code' | 'other' {
    const afterQuotes = raw.slice((QUOTES_ONLY.exec(raw) as RegExpExecArray)[0].length);
    if (fence) {
      const close = FENCE_CLOSE.exec(afterQuotes);
      if (close?.[1]?.[0] === fence.char && close[1].length >= fence.length) fence = null;
      return 'code';
    }
    if (html) {
      if (afterQuotes.trim() === '') {
        html = false;
        return 'blank';
      }
      return 'other';
    }
    const prefix = PREFIX.exec(raw) as RegExpExecArray;
    const rest = raw.slice(prefix[0].length);
    if (rest.trim() === '') return 'blank';
    const indent = indentColumns(raw);
    if (previous === 'blank' && prefix[2] === '' && indent < listIndent) listIndent = 0;
    if (markdown && indent >= listIndent + 4 && (previous === 'blank' || previous === 'code')) return 'code';
    const open = FENCE_OPEN.exec(rest);
    if (open?.[1] && !(open[1][0] === '`' && rest.slice(open[1].length).includes('`'))) {
      fence = { char: open[1][0] as string, length: open[1].length };
      return 'code';
    }
    if (THEMATIC_BREAK.test(rest) || SETEXT_UNDERLINE.test(rest) || WHOLE_LINE_STRUCTURE.test(rest)) return 'other';
    if (HTML_BLOCK.test(rest)) {
      html = true;
      return 'other';
    }
    return 'prose';
  }
}
