// Files built to hurt a reader, for the tests of bounded extraction here and in the server:
// compression bombs in each zipped format and in a PDF stream, a book that lists one chapter
// thousands of times, and texts that make careless patterns or parsers quadratic. Each is made
// small on purpose (a bomb is a few megabytes at most) and quickly: deflate blocks of zeros are
// repeated rather than compressed.
import { constants, crc32, deflateRawSync } from 'node:zlib';
import JSZip from 'jszip';
import { PDFDocument, PDFName } from 'pdf-lib';

const MB = 1024 * 1024;

/** Raw deflate data that inflates to `bytes` zero bytes (rounded up to a megabyte), about 1 KB per MB. */
export function deflateBomb(bytes: number): Buffer {
  // A non-final block of a megabyte of zeros, ending byte-aligned, so copies can follow it.
  const block = deflateRawSync(Buffer.alloc(MB), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const blocks: Buffer[] = Array.from({ length: Math.ceil(bytes / MB) }, () => block);
  // A final, empty fixed-Huffman block.
  return Buffer.concat([...blocks, Buffer.from([0x03, 0x00])]);
}

export interface ZipEntry {
  name: string;
  /** Stored bytes, or raw deflate data when `deflated`. */
  data: Buffer;
  deflated?: boolean;
  /** The size the archive claims the entry inflates to (default: the real size when stored, 0 otherwise). */
  declaredSize?: number;
}

/** A zip archive written byte by byte, so it can say what a library would not (a false size). */
export function writeZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const size = e.declaredSize ?? (e.deflated ? 0 : e.data.length);
    const crc = e.deflated ? 0 : crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.deflated ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.deflated ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

/**
 * A .docx whose word/document.xml inflates to `bytes`; the archive claims it is `declaredSize`
 * bytes (small by default: a lie only inflating can find out).
 */
export function docxBomb(bytes: number, declaredSize = 4096): Buffer {
  return writeZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', data: deflateBomb(bytes), deflated: true, declaredSize },
  ]);
}

const CONTAINER =
  '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">' +
  '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>';

const opf = (spine: string) =>
  '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/>' +
  `<manifest><item id="ch1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest><spine>${spine}</spine></package>`;

/** An EPUB whose one chapter inflates to `bytes`, its size understated in the archive. */
export function epubBomb(bytes: number): Buffer {
  return writeZip([
    { name: 'mimetype', data: Buffer.from('application/epub+zip') },
    { name: 'META-INF/container.xml', data: Buffer.from(CONTAINER) },
    { name: 'OEBPS/content.opf', data: Buffer.from(opf('<itemref idref="ch1"/>')) },
    { name: 'OEBPS/ch1.xhtml', data: deflateBomb(bytes), deflated: true, declaredSize: 4096 },
  ]);
}

/**
 * An EPUB, stored uncompressed, with one chapter of `chapterChars` characters of prose that its
 * spine lists `repeats` times.
 */
export async function epubRepeatedSpine(chapterChars: number, repeats: number): Promise<Buffer> {
  const words = 'the keeper climbed the stairs with a lamp in one hand ';
  const prose = words.repeat(Math.ceil(chapterChars / words.length)).slice(0, chapterChars);
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip');
  zip.file('META-INF/container.xml', CONTAINER);
  zip.file('OEBPS/content.opf', opf('<itemref idref="ch1"/>'.repeat(repeats)));
  zip.file('OEBPS/ch1.xhtml', `<html xmlns="http://www.w3.org/1999/xhtml"><body><p>${prose}</p></body></html>`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
}

/** A one-page PDF whose content stream is Flate data that inflates to `bytes`. */
export async function pdfBomb(bytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  // zlib's two-byte header around the raw deflate data; the checksum is never reached.
  const data = Buffer.concat([Buffer.from([0x78, 0x9c]), deflateBomb(bytes), Buffer.alloc(4)]);
  const stream = doc.context.stream(data, { Filter: 'FlateDecode' });
  page.node.set(PDFName.of('Contents'), doc.context.register(stream));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** Text that a pattern such as /[ \t]+\n/ takes quadratic time over: one long run of tabs that no line end follows. */
export const tabRun = (tabs: number): string => `x${'\t'.repeat(tabs)}y`;

/** Markdown that remark's emphasis matching takes quadratic time over. */
export const emphasisRun = (bytes: number): string => '*a'.repeat(Math.ceil(bytes / 2));

/** A page whose elements nest `depth` deep, none of them closed. */
export const deepHtml = (depth: number): string => `${'<div>'.repeat(depth)}deep`;

/** An EPUB whose one chapter nests `depth` deep, or its package file does (`where`). */
export function deepEpub(depth: number, where: 'chapter' | 'package' = 'chapter'): Buffer {
  const chapter = `<html xmlns="http://www.w3.org/1999/xhtml"><body>${deepHtml(depth)}</body></html>`;
  const pkg = opf('<itemref idref="ch1"/>');
  return writeZip([
    { name: 'mimetype', data: Buffer.from('application/epub+zip') },
    { name: 'META-INF/container.xml', data: Buffer.from(CONTAINER) },
    {
      name: 'OEBPS/content.opf',
      data: Buffer.from(
        where === 'package' ? pkg.replace('<metadata/>', `<metadata>${'<x>'.repeat(depth)}</metadata>`) : pkg,
      ),
    },
    {
      name: 'OEBPS/ch1.xhtml',
      data: Buffer.from(where === 'chapter' ? chapter : '<html><body><p>ok</p></body></html>'),
    },
  ]);
}

/**
 * A Word document whose elements nest `depth` deep in all: content controls (`w:sdt`, two elements
 * each) around one paragraph, inside the document and its body, every one closed.
 */
export function deepDocx(depth: number): Buffer {
  // The document, the body, and the paragraph's run and text are five.
  const levels = Math.max(0, Math.floor((depth - 5) / 2));
  const body =
    '<w:sdt><w:sdtContent>'.repeat(levels) +
    '<w:p><w:r><w:t>deep</w:t></w:r></w:p>' +
    '</w:sdtContent></w:sdt>'.repeat(levels);
  const document =
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
    `<w:body>${body}</w:body></w:document>`;
  return writeZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', data: Buffer.from(document) },
  ]);
}

/**
 * Markdown built to make remark's parser (micromark) take time or stack growing faster than the
 * text, each about `bytes` long: emphasis nested in emphasis, strikethrough markers, `]` with no
 * `[`, labels nested in labels, backtick runs that find no closing run, a quote on every other
 * line, and lists or quotes nested on one line.
 */
export const markdownHostile = {
  nestedEmphasis: (bytes: number) => ' *a'.repeat(Math.ceil(bytes / 6)) + 'a* '.repeat(Math.ceil(bytes / 6)),
  strikethrough: (bytes: number) => '~a'.repeat(Math.ceil(bytes / 2)),
  closingBrackets: (bytes: number) => 'a]'.repeat(Math.ceil(bytes / 2)),
  nestedLabels: (bytes: number) => `${'['.repeat(Math.ceil(bytes / 2))}a${']'.repeat(Math.ceil(bytes / 2))}`,
  backtickRuns: (bytes: number) => {
    const runs: string[] = [];
    let length = 0;
    for (let run = 1; length < bytes; run += 1) {
      runs.push(`${'`'.repeat(run)} some words `);
      length += run + 12;
    }
    return runs.join('');
  },
  quotes: (bytes: number) => '> a\n\n'.repeat(Math.ceil(bytes / 5)),
  nestedQuotes: (bytes: number) => `${'>'.repeat(bytes)} a`,
  nestedLists: (bytes: number) => `${'- '.repeat(Math.ceil(bytes / 2))}a`,
} as const;
