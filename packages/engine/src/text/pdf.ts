// PDF to text with unpdf (PDF.js built for servers). PDF.js gives positioned runs of text; the
// lines are rebuilt from them, and paragraphs from the layout: a gap wider than the usual line
// spacing, or a first line indented from the left margin. Lines within a paragraph stay separate
// here; cleanText's unwrapLines joins them.
import { constants, inflateSync } from 'node:zlib';
import { extractTextItems, getDocumentProxy, type StructuredTextItem } from 'unpdf';
import { ExtractionLimitError, MAX_EXTRACTED_CHARS, MAX_PDF_DECODED_BYTES, MAX_PDF_STREAM_BYTES } from './limits.js';

interface Line {
  text: string;
  x: number;
  y: number;
  size: number;
}

export async function pdfToText(data: Uint8Array): Promise<string> {
  checkPdfStreams(data);
  // A copy: PDF.js may take over the buffer it is given, and the caller's must stay intact.
  const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
  try {
    const { items } = await extractTextItems(pdf);
    let out = '';
    for (const pageItems of items) {
      const page = pageText(pageItems);
      if (!page) continue;
      // A page that ends mid-sentence continues its paragraph on the next page.
      if (out) out += SENTENCE_END.has(out.charAt(out.length - 1)) ? '\n\n' : '\n';
      out += page;
      if (out.length > MAX_EXTRACTED_CHARS) throw new ExtractionLimitError('the PDF gives more text than a file may');
    }
    return out;
  } finally {
    await pdf.destroy();
  }
}

const SENTENCE_END = new Set('.!?:;"”’)]…');

const LATIN1 = 'latin1';

/**
 * PDF.js inflates a stream whole, however large it grows, before it reads a character of it. So
 * every Flate-compressed stream other than an image (text extraction never decodes images) is
 * inflated here first with a bound, and a PDF whose streams decode past the limits is refused.
 */
export function checkPdfStreams(data: Uint8Array): void {
  const pdf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  let total = 0;
  let from = 0;
  for (;;) {
    const keyword = pdf.indexOf('stream', from, LATIN1);
    if (keyword < 0) return;
    from = keyword + 6;
    // "endstream", or the word inside something else, is not the start of a stream.
    if (pdf.toString(LATIN1, Math.max(0, keyword - 3), keyword) === 'end') continue;
    let start = from;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] !== 0x0a && pdf[from] !== 0x0d) continue;
    if (pdf[start] === 0x0a) start++;
    // The stream's dictionary: back to its "obj", looking no further than a dictionary can sensibly be.
    const before = pdf.subarray(Math.max(0, keyword - 4096), keyword);
    const dict = before.toString(LATIN1, Math.max(0, before.lastIndexOf('obj', undefined, LATIN1)));
    const found = pdf.indexOf('endstream', start, LATIN1);
    const end = found < 0 ? pdf.length : found;
    from = end + 9;
    const flates = dict.split('/FlateDecode').length - 1;
    if (flates === 0 || /\/Subtype\s*\/Image\b/.test(dict)) continue;
    let bytes: Buffer = pdf.subarray(start, end);
    for (let i = 0; i < flates; i++) {
      const allowed = Math.min(MAX_PDF_STREAM_BYTES, MAX_PDF_DECODED_BYTES - total);
      try {
        bytes = inflateSync(bytes, { maxOutputLength: allowed + 1, finishFlush: constants.Z_SYNC_FLUSH });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
          throw new ExtractionLimitError('a stream of the PDF decodes past the limit');
        }
        // Damaged streams are PDF.js's to forgive or refuse.
        break;
      }
      if (bytes.length > allowed) throw new ExtractionLimitError('a stream of the PDF decodes past the limit');
      total += bytes.length;
    }
  }
}

function pageText(items: readonly StructuredTextItem[]): string {
  const lines = dropPageNumbers(toLines(items));
  if (lines.length === 0) return '';
  const size = median(lines.map((l) => l.size)) || 12;
  const gaps = lines.slice(1).map((l, i) => (lines[i] as Line).y - l.y);
  const positive = gaps.filter((g) => g > 0);
  // With few lines the spacing cannot be measured; take the usual 1.2 times the font size.
  const spacing = positive.length >= 3 ? median(positive) : 1.2 * size;
  const margin = mode(lines.map((l) => Math.round(l.x)));
  let out = (lines[0] as Line).text;
  lines.slice(1).forEach((line, i) => {
    const gap = gaps[i] as number;
    const paragraph = gap > 1.4 * spacing || line.x - margin > 0.8 * size;
    out += (paragraph ? '\n\n' : '\n') + line.text;
  });
  return out;
}

function toLines(items: readonly StructuredTextItem[]): Line[] {
  const lines: Line[] = [];
  let current: Line | null = null;
  for (const item of items) {
    // A run that starts well above or below the current line's baseline starts a new line.
    if (current && Math.abs(item.y - current.y) > 0.5 * Math.max(item.fontSize, current.size)) {
      pushLine(lines, current);
      current = null;
    }
    if (item.str) {
      current ??= { text: '', x: item.x, y: item.y, size: item.fontSize };
      current.text += item.str;
    }
    if (item.hasEOL && current) {
      pushLine(lines, current);
      current = null;
    }
  }
  if (current) pushLine(lines, current);
  return lines;
}

function pushLine(lines: Line[], line: Line): void {
  const text = line.text.trim();
  if (text) lines.push({ ...line, text });
}

// A page number alone on the first or last line is not the writer's text.
function dropPageNumbers(lines: Line[]): Line[] {
  const isNumber = (l: Line | undefined) => l !== undefined && /^\d{1,4}$/.test(l.text);
  let from = 0;
  let to = lines.length;
  if (isNumber(lines[to - 1])) to--;
  if (to > from && isNumber(lines[from])) from++;
  return lines.slice(from, to);
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function mode(values: number[]): number {
  const counts = new Map<number, number>();
  let best = values[0] ?? 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > (counts.get(best) ?? 0) || (c === counts.get(best) && v < best)) best = v;
  }
  return best;
}
