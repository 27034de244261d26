// EPUB to text: the zip's META-INF/container.xml names the package (OPF) file, whose spine lists
// the chapters in reading order; each chapter is XHTML read like any HTML page. Chapters marked
// linear="no" (notes, pop-ups) are outside the main reading order and are left out. A chapter
// listed again is read once: repeats add nothing a writer wrote, only size.
import { DomUtils, parseDocument } from 'htmlparser2';
import { htmlToPlainText } from './html.js';
import { ExtractionLimitError, MAX_EPUB_SPINE_ITEMS, MAX_EXTRACTED_CHARS } from './limits.js';
import { checkTreeDepth } from './nesting.js';
import { BoundedZip } from './zip.js';

export class EpubStructureError extends Error {}

export async function epubToText(data: Buffer): Promise<string> {
  const zip = new BoundedZip(data);
  const container = readEntry(zip, 'META-INF/container.xml');
  const rootfile = elements(container, 'rootfile')
    .map((e) => e.attribs['full-path'])
    .find((p) => p);
  if (!rootfile) throw new EpubStructureError('META-INF/container.xml names no package file');
  const opf = readEntry(zip, rootfile);
  const base = rootfile.includes('/') ? rootfile.slice(0, rootfile.lastIndexOf('/') + 1) : '';
  const hrefs = new Map(elements(opf, 'item').map((e) => [e.attribs.id, e.attribs.href]));
  const spine = elements(opf, 'itemref');
  if (spine.length > MAX_EPUB_SPINE_ITEMS) {
    throw new ExtractionLimitError(`the spine lists more than ${MAX_EPUB_SPINE_ITEMS} chapters`);
  }
  const read = new Set<string>();
  const chapters: string[] = [];
  let length = 0;
  for (const ref of spine) {
    if (ref.attribs.linear === 'no') continue;
    const href = hrefs.get(ref.attribs.idref);
    if (!href) throw new EpubStructureError(`the spine names "${ref.attribs.idref}", which is not in the manifest`);
    const entry = resolvePath(base, href);
    if (read.has(entry)) continue;
    read.add(entry);
    const text = htmlToPlainText(readEntry(zip, entry)).trim();
    if (!text) continue;
    length += text.length + 2;
    if (length > MAX_EXTRACTED_CHARS) throw new ExtractionLimitError('the book gives more text than a file may');
    chapters.push(text);
  }
  return chapters.join('\n\n');
}

function readEntry(zip: BoundedZip, path: string): string {
  if (!zip.has(path)) throw new EpubStructureError(`${path} is missing`);
  return zip.readText(path);
}

// Tag names without their namespace prefix (opf:item and item alike).
function elements(xml: string, localName: string) {
  checkTreeDepth(xml, { xmlMode: true });
  const doc = parseDocument(xml, { xmlMode: true });
  return DomUtils.findAll((e) => e.name === localName || e.name.endsWith(`:${localName}`), doc.children);
}

// Manifest hrefs are URLs relative to the package file: percent-encoded, possibly with "../".
function resolvePath(base: string, href: string): string {
  const parts: string[] = [];
  for (const part of (base + safeDecode(href.split('#')[0] ?? '')).split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

function safeDecode(href: string): string {
  try {
    return decodeURIComponent(href);
  } catch {
    throw new EpubStructureError(`the manifest names a malformed path: ${href.slice(0, 100)}`);
  }
}
