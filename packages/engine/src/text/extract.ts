// The text of one uploaded file, by its extension. The text is as the file gives it (paragraphs
// separated by blank lines); cleanExtracted normalises it for training.
import { countChars } from './clean.js';
import { decodeTextBytes, nulError } from './decode.js';
import { docxToText } from './docx.js';
import { epubToText } from './epub.js';
import { TextExtractionError } from './errors.js';
import { ACCEPTED_EXTENSIONS, formatOf, type TextFormat } from './formats.js';
import { htmlToPlainText } from './html.js';
import { jsonlToText } from './jsonl.js';
import { markdownToPlainText } from './markdown.js';
import { pdfToText } from './pdf.js';

export interface UploadedFile {
  name: string;
  data: Buffer;
}

export interface ExtractedText {
  text: string;
  /** Unicode code points in `text`. */
  chars: number;
  format: TextFormat;
}

const FORMAT_NAMES: Record<TextFormat, string> = {
  txt: 'text',
  md: 'Markdown',
  pdf: 'PDF',
  docx: 'Word document',
  epub: 'EPUB',
  html: 'HTML',
  jsonl: 'JSON Lines',
};

function readFormat(format: TextFormat, file: UploadedFile): Promise<string> | string {
  switch (format) {
    case 'pdf':
      return pdfToText(file.data);
    case 'docx':
      return docxToText(file.data);
    case 'epub':
      return epubToText(file.data);
    case 'txt':
      return decodeTextBytes(file.name, file.data);
    case 'md':
      return markdownToPlainText(decodeTextBytes(file.name, file.data));
    case 'html':
      return htmlToPlainText(decodeTextBytes(file.name, file.data));
    case 'jsonl':
      return jsonlToText(decodeTextBytes(file.name, file.data));
  }
}

/**
 * Throws TextExtractionError: UNSUPPORTED_TYPE for an extension not in ACCEPTED_EXTENSIONS (or
 * .htm), NUL_CHARACTERS when a text format's bytes or any format's text hold a NUL, UNREADABLE
 * when the file is not what its extension says or is damaged.
 */
export async function extractText(file: UploadedFile): Promise<ExtractedText> {
  const format = formatOf(file.name);
  if (!format) {
    throw new TextExtractionError(
      'UNSUPPORTED_TYPE',
      file.name,
      `${file.name} is not a supported file type (accepted: ${ACCEPTED_EXTENSIONS.join(', ')})`,
    );
  }
  let text: string;
  try {
    text = await readFormat(format, file);
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new TextExtractionError(
      'UNREADABLE',
      file.name,
      `${file.name} could not be read as ${FORMAT_NAMES[format]}: ${reason}`,
      { cause: error },
    );
  }
  if (text.includes('\0')) throw nulError(file.name);
  return { text, chars: countChars(text), format };
}
