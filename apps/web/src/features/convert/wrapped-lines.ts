// Hard-wrapped plain text (an e-mail, a text file) breaks each paragraph into lines of about 72
// characters. Pasted as it is, every line would become a paragraph of its own and the rewrite
// would keep that shape, so the lines of a paragraph are joined back into one before the editor
// reads them. Only prose lines join: the breaks that mean something stay.

/** A code fence opens or closes: every line inside it keeps its break. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A heading, a list item, a quote, a table row, a rule or a setext underline keeps its own line. */
const OWN_LINE = [
  /^ {0,3}#{1,6}(\s|$)/,
  /^\s*[-*+]\s/,
  /^\s*\d{1,9}[.)]\s/,
  /^ {0,3}>/,
  /\|/,
  /^ {0,3}(=+|-+|(\*\s*){3,}|(_\s*){3,})\s*$/,
];

/** Two spaces or a backslash at the end of a line: the writer asked for a line break there. */
const HARD_BREAK = /( {2,}|\\)$/;

const isBlank = (line: string): boolean => line.trim() === '';
const keepsOwnLine = (line: string): boolean => OWN_LINE.some((pattern) => pattern.test(line));

/**
 * The text with each paragraph's wrapped lines joined by a space. Blank lines separate
 * paragraphs; lines of lists, headings, quotes, code fences and tables keep their breaks, and so
 * does a line ending in two spaces or a backslash. Line endings become `\n`.
 */
export function joinWrappedLines(text: string): string {
  const out: string[] = [];
  let inFence = false;
  // Whether the last line written is prose that the next prose line may join.
  let open = false;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (inFence || FENCE.test(line)) {
      if (FENCE.test(line)) inFence = !inFence;
      out.push(line);
      open = false;
    } else if (isBlank(line)) {
      out.push('');
      open = false;
    } else if (keepsOwnLine(line)) {
      out.push(line);
      open = false;
    } else if (open) {
      out[out.length - 1] = `${(out.at(-1) ?? '').trimEnd()} ${line.trim()}`;
      open = !HARD_BREAK.test(line);
    } else {
      out.push(line);
      open = !HARD_BREAK.test(line);
    }
  }
  return out.join('\n');
}

/**
 * Plain (not markdown) text as paragraphs of lines: blank lines part paragraphs, and the lines
 * left inside one are those that kept their break, without the two spaces or the backslash that
 * asked for it. Run joinWrappedLines first.
 */
export function plainParagraphs(text: string): string[][] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((block) =>
      block
        .split('\n')
        .map((line) => line.replace(HARD_BREAK, '').trimEnd())
        .filter((line) => line.trim() !== ''),
    )
    .filter((lines) => lines.length > 0);
}
