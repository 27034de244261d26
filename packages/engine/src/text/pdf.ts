// PDF to text with unpdf (PDF.js built for servers). PDF.js gives positioned runs of text; the
// lines are rebuilt from them, and paragraphs from the layout: a gap wider than the usual line
// spacing, or a first line indented from the left margin. Lines within a paragraph stay separate
// here; cleanText's unwrapLines joins them.
import { extractTextItems, getDocumentProxy, type StructuredTextItem } from 'unpdf';

interface Line {
  text: string;
  x: number;
  y: number;
  size: number;
}

export async function pdfToText(data: Uint8Array): Promise<string> {
  // A copy: PDF.js may take over the buffer it is given, and the caller's must stay intact.
  const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
  try {
    const { items } = await extractTextItems(pdf);
    let out = '';
    for (const pageItems of items) {
      const page = pageText(pageItems);
      if (!page) continue;
      // A page that ends mid-sentence continues its paragraph on the next page.
      if (out) out += /[.!?:;"”’)\]…]$/.test(out) ? '\n\n' : '\n';
      out += page;
    }
    return out;
  } finally {
    await pdf.destroy();
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
