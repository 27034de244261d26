// Real .docx and .pdf files of a text, made with the libraries that write them, for tests of
// uploads (the API tests and the end-to-end tests in e2e/ both use these).
import { Document, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';

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
