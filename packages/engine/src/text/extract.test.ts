import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanExtracted } from './clean.js';
import { TextExtractionError, uploadErrorMessage } from './errors.js';
import { extractText } from './extract.js';
import { ACCEPTED_EXTENSIONS, formatOf } from './formats.js';

// Real files, made here with the libraries that write them.

async function makePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const write = (page: ReturnType<PDFDocument['addPage']>, lines: [string, number, number?][]) => {
    for (const [text, y, x = 72] of lines) page.drawText(text, { x, y, size: 12, font });
  };
  const one = doc.addPage([612, 792]);
  write(one, [
    ['The lighthouse keeper rose before dawn and climbed', 720],
    ['the spiral stairs with a lamp in one hand and a ket-', 705],
    ['tle in the other.', 690],
    // A wider gap: a new paragraph.
    ['Fog had come in from the sea overnight.', 655],
    ['It lay on the water like wool.', 640],
    // An indented first line, no gap: a new paragraph.
    ['He thought of his brother, who had kept the light', 625, 96],
    ['before him and who had never once', 610],
    ['1', 60, 300], // page number
  ]);
  const two = doc.addPage([612, 792]);
  write(two, [
    ['missed a night in thirty years.', 720],
    ['By noon the fog had lifted.', 685],
    ['2', 60, 300],
  ]);
  return Buffer.from(await doc.save());
}

async function makeDocx(): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Letters from the Coast', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun('Dear Anna, the weather has turned '),
              new TextRun({ text: 'wild', bold: true }),
              new TextRun(' again.'),
            ],
          }),
          new Paragraph({ children: [new TextRun('The boats stay in the harbour and nobody minds.')] }),
        ],
      },
    ],
  });
  return Buffer.from(await Packer.toBuffer(doc));
}

const xhtml = (title: string, body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title></head><body>${body}</body></html>`;

async function makeEpub(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('mimetype', 'application/epub+zip', { compression: 'STORE' });
  zip.file(
    'META-INF/container.xml',
    `<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>`,
  );
  // The manifest lists the chapters out of order; the spine gives the reading order.
  zip.file(
    'OEBPS/content.opf',
    `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Tide Tables</dc:title><dc:identifier id="id">x</dc:identifier></metadata>
  <manifest>
    <item id="c2" href="text/chapter%202.xhtml" media-type="application/xhtml+xml"/>
    <item id="notes" href="notes.xhtml" media-type="application/xhtml+xml"/>
    <item id="c1" href="text/chapter1.xhtml" media-type="application/xhtml+xml"/>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
  </manifest>
  <spine><itemref idref="c1"/><itemref idref="notes" linear="no"/><itemref idref="c2"/></spine>
</package>`,
  );
  zip.file('OEBPS/nav.xhtml', xhtml('Contents', '<nav><ol><li>Chapter One</li></ol></nav>'));
  zip.file(
    'OEBPS/text/chapter1.xhtml',
    xhtml('One', '<h1>Chapter One</h1><p>The tide goes out twice a day.</p><p>Nobody <em>counts</em> it.</p>'),
  );
  zip.file('OEBPS/text/chapter 2.xhtml', xhtml('Two', '<h1>Chapter Two</h1><p>The tide comes back.</p>'));
  zip.file('OEBPS/notes.xhtml', xhtml('Notes', '<p>A footnote outside the reading order.</p>'));
  return zip.generateAsync({ type: 'nodebuffer' });
}

const file = (name: string, data: string | Buffer) => ({
  name,
  data: typeof data === 'string' ? Buffer.from(data, 'utf8') : data,
});

async function extractionError(f: { name: string; data: Buffer }): Promise<TextExtractionError> {
  const error = await extractText(f).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TextExtractionError);
  return error as TextExtractionError;
}

const paragraphs = (text: string) => text.split(/\n{2,}/);

let pdf: Buffer;
let docx: Buffer;
let epub: Buffer;
beforeAll(async () => {
  [pdf, docx, epub] = await Promise.all([makePdf(), makeDocx(), makeEpub()]);
});

describe('accepted file types', () => {
  it('are listed once, with .htm read as HTML, by extension in any case', () => {
    expect(ACCEPTED_EXTENSIONS).toEqual(['.txt', '.md', '.pdf', '.docx', '.epub', '.html', '.jsonl']);
    expect(formatOf('Book.PDF')).toBe('pdf');
    expect(formatOf('page.htm')).toBe('html');
    expect(formatOf('notes.Md')).toBe('md');
    expect(formatOf('archive.tar.gz')).toBeNull();
    expect(formatOf('README')).toBeNull();
  });

  it('reject anything else as UNSUPPORTED_TYPE, naming the file', async () => {
    const e = await extractionError(file('setup.exe', Buffer.from([0x4d, 0x5a, 0x90, 0x00])));
    expect(e.code).toBe('UNSUPPORTED_TYPE');
    expect(e.fileName).toBe('setup.exe');
    expect(e.message).toContain('setup.exe');
    expect((await extractionError(file('notes', 'plain words'))).code).toBe('UNSUPPORTED_TYPE');
  });
});

describe('plain text', () => {
  it('is read as UTF-8 without its byte-order mark', async () => {
    const data = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Première ligne.\r\n\r\nDeuxième.')]);
    expect(await extractText(file('a.TXT', data))).toEqual({
      text: 'Première ligne.\r\n\r\nDeuxième.',
      chars: 28,
      format: 'txt',
    });
  });

  it('falls back to Windows-1252 for bytes that are not UTF-8', async () => {
    const data = Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x6f, 0x6b, 0x94]); // Café “ok”
    expect((await extractText(file('old.txt', data))).text).toBe('Café “ok”');
  });

  it('with NUL bytes (binary, or UTF-16) gives NUL_CHARACTERS', async () => {
    const e = await extractionError(file('dump.txt', Buffer.from('some\u0000text')));
    expect(e.code).toBe('NUL_CHARACTERS');
    expect(e.message).toContain('dump.txt');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello', 'utf16le')]);
    expect((await extractionError(file('wide.txt', utf16))).code).toBe('NUL_CHARACTERS');
    expect((await extractionError(file('data.jsonl', Buffer.from('{"text":"a"}\u0000')))).code).toBe('NUL_CHARACTERS');
  });
});

describe('Markdown', () => {
  it('keeps the words and paragraphs and drops the syntax, code and images', async () => {
    const md = [
      '# A *Title*',
      '',
      'Some **bold** words, a [link](https://example.com) and `inline code`.',
      'Still the same paragraph: 5 * 3 = 15_000.',
      '',
      '- first item',
      '- second item',
      '',
      '> A quoted line.',
      '',
      '```js',
      'const hidden = true;',
      '```',
      '',
      '![a picture](pic.png)',
      '',
      'Last ~~struck~~ words.',
    ].join('\n');
    const { text, format } = await extractText(file('post.md', md));
    expect(format).toBe('md');
    expect(paragraphs(text)).toEqual([
      'A Title',
      'Some bold words, a link and inline code.\nStill the same paragraph: 5 * 3 = 15_000.',
      'first item',
      'second item',
      'A quoted line.',
      'Last struck words.',
    ]);
  });
});

describe('HTML', () => {
  it('gives the text of block elements in order, without scripts, styles or markup', async () => {
    const html = `<!doctype html><html><head><title>Not body text</title><style>p{color:red}</style>
      <script>var hidden = 1;</script></head><body><nav>Home | About</nav>
      <h2>On   Walking</h2><p>I walk <b>every</b> morning &amp; evening&mdash;rain or shine.</p>
      <p>Second<br>paragraph, <a href="https://example.com">with a link</a>.</p>
      <ul><li>boots</li><li>coat</li></ul><img src="x.png" alt="decoration"></body></html>`;
    for (const name of ['essay.html', 'essay.HTM']) {
      const { text, format } = await extractText(file(name, html));
      expect(format).toBe('html');
      expect(paragraphs(text.trim())).toEqual([
        'On Walking',
        'I walk every morning & evening—rain or shine.',
        'Second\nparagraph, with a link.',
        'boots',
        'coat',
      ]);
    }
  });
});

describe('JSON Lines', () => {
  it('takes text, content, body, or the assistant turns of a chat, skipping blank lines', async () => {
    const lines = [
      JSON.stringify({ text: 'From text.' }),
      '',
      JSON.stringify({ content: 'From content.', id: 7 }),
      '   ',
      JSON.stringify({ body: 'From body.' }),
      JSON.stringify({
        messages: [
          { role: 'system', content: 'You are helpful.' },
          { role: 'user', content: 'Write me a line.' },
          { role: 'assistant', content: 'The assistant line.' },
          { role: 'assistant', content: [{ type: 'text', text: 'In parts.' }] },
        ],
      }),
      JSON.stringify({ messages: [{ role: 'user', content: 'Only a user turn.' }] }),
    ].join('\r\n');
    const { text } = await extractText(file('export.jsonl', lines));
    expect(paragraphs(text)).toEqual([
      'From text.',
      'From content.',
      'From body.',
      'The assistant line.',
      'In parts.',
      'Only a user turn.',
    ]);
  });

  it('gives UNREADABLE naming the line that is not JSON or has no text', async () => {
    const bad = await extractionError(file('x.jsonl', '{"text":"ok"}\n\n{"text": oops}\n'));
    expect(bad.code).toBe('UNREADABLE');
    expect(bad.message).toContain('x.jsonl');
    expect(bad.message).toContain('line 3');
    const empty = await extractionError(file('y.jsonl', '{"text":"ok"}\n{"title":"no text"}'));
    expect(empty.code).toBe('UNREADABLE');
    expect(empty.message).toContain('line 2');
  });
});

describe('PDF', () => {
  it('rebuilds lines and paragraphs from the layout, across pages, without page numbers', async () => {
    const extracted = await extractText(file('keeper.pdf', pdf));
    expect(extracted.format).toBe('pdf');
    expect(paragraphs(extracted.text)).toEqual([
      'The lighthouse keeper rose before dawn and climbed\nthe spiral stairs with a lamp in one hand and a ket-\ntle in the other.',
      'Fog had come in from the sea overnight.\nIt lay on the water like wool.',
      'He thought of his brother, who had kept the light\nbefore him and who had never once\nmissed a night in thirty years.',
      'By noon the fog had lifted.',
    ]);
    expect(paragraphs(cleanExtracted(extracted))).toEqual([
      'The lighthouse keeper rose before dawn and climbed the spiral stairs with a lamp in one hand and a kettle in the other.',
      'Fog had come in from the sea overnight. It lay on the water like wool.',
      'He thought of his brother, who had kept the light before him and who had never once missed a night in thirty years.',
      'By noon the fog had lifted.',
    ]);
  });

  it('that is truncated or not a PDF gives UNREADABLE', async () => {
    for (const data of [pdf.subarray(0, 400), Buffer.from('%PDF-1.7 this is not really a pdf')]) {
      const e = await extractionError(file('broken.pdf', data));
      expect(e.code).toBe('UNREADABLE');
      expect(e.message).toContain('broken.pdf');
    }
  });
});

describe('Word documents', () => {
  it('give each paragraph in order, runs joined', async () => {
    const { text, format } = await extractText(file('letters.docx', docx));
    expect(format).toBe('docx');
    expect(paragraphs(text.trim())).toEqual([
      'Letters from the Coast',
      'Dear Anna, the weather has turned wild again.',
      'The boats stay in the harbour and nobody minds.',
    ]);
  });

  it('that are truncated, or zips of something else, give UNREADABLE', async () => {
    const notDocx = await new JSZip().file('hello.txt', 'hi').generateAsync({ type: 'nodebuffer' });
    for (const data of [docx.subarray(0, docx.length / 2), notDocx, Buffer.from('PK\u0003\u0004junk')]) {
      const e = await extractionError(file('letters.docx', data));
      expect(e.code).toBe('UNREADABLE');
      expect(e.message).toContain('letters.docx');
    }
  });
});

describe('EPUB', () => {
  it('gives the chapters in spine order, leaving out non-linear items and navigation', async () => {
    const { text, format } = await extractText(file('tides.epub', epub));
    expect(format).toBe('epub');
    expect(paragraphs(text)).toEqual([
      'Chapter One',
      'The tide goes out twice a day.',
      'Nobody counts it.',
      'Chapter Two',
      'The tide comes back.',
    ]);
  });

  it('that is truncated or has no container gives UNREADABLE', async () => {
    const zip = await JSZip.loadAsync(epub);
    zip.remove('META-INF/container.xml');
    const noContainer = await zip.generateAsync({ type: 'nodebuffer' });
    for (const data of [epub.subarray(0, epub.length - 200), noContainer]) {
      const e = await extractionError(file('tides.epub', data));
      expect(e.code).toBe('UNREADABLE');
      expect(e.message).toContain('tides.epub');
    }
  });
});

describe('uploadErrorMessage', () => {
  const err = (code: TextExtractionError['code'], name: string) => new TextExtractionError(code, name, name);

  it("uses the product's messages, encoding problems first", () => {
    expect(
      uploadErrorMessage([err('UNREADABLE', 'a.pdf'), err('NUL_CHARACTERS', 'b.txt'), err('NUL_CHARACTERS', 'c.md')]),
    ).toBe('Invalid file encoding detected: b.txt, c.md');
    expect(uploadErrorMessage([err('UNSUPPORTED_TYPE', 'x.exe'), err('UNREADABLE', 'a.pdf')])).toBe(
      'Error reading some files',
    );
    expect(uploadErrorMessage([err('UNSUPPORTED_TYPE', 'x.exe')])).toBe('Unsupported file type: x.exe');
  });
});
