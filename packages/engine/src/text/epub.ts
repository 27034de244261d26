// EPUB to text: the zip's META-INF/container.xml names the package (OPF) file, whose spine lists
// the chapters in reading order; each chapter is XHTML read like any HTML page. Chapters marked
// linear="no" (notes, pop-ups) are outside the main reading order and are left out.
import { DomUtils, parseDocument } from 'htmlparser2';
import JSZip from 'jszip';
import { htmlToPlainText } from './html.js';

export class EpubStructureError extends Error {}

export async function epubToText(data: Buffer): Promise<string> {
  const zip = await JSZip.loadAsync(data);
  const container = await readEntry(zip, 'META-INF/container.xml');
  const rootfile = elements(container, 'rootfile')
    .map((e) => e.attribs['full-path'])
    .find((p) => p);
  if (!rootfile) throw new EpubStructureError('META-INF/container.xml names no package file');
  const opf = await readEntry(zip, rootfile);
  const base = rootfile.includes('/') ? rootfile.slice(0, rootfile.lastIndexOf('/') + 1) : '';
  const hrefs = new Map(elements(opf, 'item').map((e) => [e.attribs.id, e.attribs.href]));
  const chapters: string[] = [];
  for (const ref of elements(opf, 'itemref')) {
    if (ref.attribs.linear === 'no') continue;
    const href = hrefs.get(ref.attribs.idref);
    if (!href) throw new EpubStructureError(`the spine names "${ref.attribs.idref}", which is not in the manifest`);
    const text = htmlToPlainText(await readEntry(zip, resolvePath(base, href))).trim();
    if (text) chapters.push(text);
  }
  return chapters.join('\n\n');
}

async function readEntry(zip: JSZip, path: string): Promise<string> {
  const entry = zip.file(path);
  if (!entry) throw new EpubStructureError(`${path} is missing`);
  return entry.async('string');
}

// Tag names without their namespace prefix (opf:item and item alike).
function elements(xml: string, localName: string) {
  const doc = parseDocument(xml, { xmlMode: true });
  return DomUtils.findAll((e) => e.name === localName || e.name.endsWith(`:${localName}`), doc.children);
}

// Manifest hrefs are URLs relative to the package file: percent-encoded, possibly with "../".
function resolvePath(base: string, href: string): string {
  const parts: string[] = [];
  for (const part of (base + decodeURIComponent(href.split('#')[0] ?? '')).split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}
