// Writing to train on in tests: real prose from the engine's corpus, as the files people upload.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from '@ownvoice/engine';
import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** At least `chars` characters of the Jargon File, cut at a paragraph break. */
export function writingSample(chars: number, offset = 0.3): string {
  const text = readFileSync(path.join(CORPUS_DIR, 'jargon.txt'), 'utf8');
  const start = text.indexOf('\n\n', Math.floor(text.length * offset)) + 2;
  const end = text.indexOf('\n\n', start + chars);
  return text.slice(start, end);
}

export async function makeDocx(text: string): Promise<Buffer> {
  const paragraphs = text.split(/\n{2,}/).map((p) => new Paragraph({ text: p.replace(/\s+/g, ' ') }));
  return Buffer.from(await Packer.toBuffer(new Document({ sections: [{ children: paragraphs }] })));
}

/** A PDF of `text`, wrapped at about 80 characters a line. */
export async function makePdf(text: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const lines = text
    .replace(/[^\x20-\x7e\n]/g, ' ')
    .split(/\n{2,}/)
    .flatMap((p) => [...(p.replace(/\s+/g, ' ').match(/.{1,80}(\s|$)/g) ?? []), '']);
  let page = doc.addPage([612, 792]);
  let y = 740;
  for (const line of lines) {
    if (y < 60) {
      page = doc.addPage([612, 792]);
      y = 740;
    }
    page.drawText(line.trim(), { x: 60, y, size: 11, font });
    y -= 15;
  }
  return Buffer.from(await doc.save());
}
