// Reads one uploaded file in this process. Only the extraction process (extract-child.ts) calls
// it: a hostile file may still take a parser's time or memory, and that process has bounds.
import { countWrittenChars } from '@ownvoice/shared';
import { cleanExtracted, countChars } from './clean.js';
import { decodeTextBytes, nulError } from './decode.js';
import { docxToText } from './docx.js';
import { epubToText } from './epub.js';
import { TextExtractionError } from './errors.js';
import { ACCEPTED_EXTENSIONS, formatOf, type TextFormat } from './formats.js';
import { htmlToPlainText } from './html.js';
import { jsonlToText } from './jsonl.js';
import { ExtractionLimitError, MAX_EXTRACTED_CHARS } from './limits.js';
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

/** A file's text as it is trained on: cleaned, and counted as a writer counts (see countWrittenChars). */
export interface TrainingText {
  text: string;
  characters: number;
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

/** The format a file is read as; throws UNSUPPORTED_TYPE for any other extension. */
export function acceptedFormat(fileName: string): TextFormat {
  const format = formatOf(fileName);
  if (!format) {
    throw new TextExtractionError(
      'UNSUPPORTED_TYPE',
      fileName,
      `${fileName} is not a supported file type (accepted: ${ACCEPTED_EXTENSIONS.join(', ')})`,
    );
  }
  return format;
}

export const unreadable = (fileName: string, format: TextFormat | null, reason: string, cause?: unknown) =>
  new TextExtractionError(
    'UNREADABLE',
    fileName,
    `${fileName} could not be read${format ? ` as ${FORMAT_NAMES[format]}` : ''}: ${reason}`,
    { cause },
  );

/** See extractText. */
export async function parseFile(file: UploadedFile): Promise<ExtractedText> {
  const format = acceptedFormat(file.name);
  let text: string;
  try {
    text = await readFormat(format, file);
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw unreadable(file.name, format, reason, error);
  }
  if (text.length > MAX_EXTRACTED_CHARS) {
    throw unreadable(file.name, format, 'it gives more text than a file may', new ExtractionLimitError());
  }
  if (text.includes('\0')) throw nulError(file.name);
  return { text, chars: countChars(text), format };
}

/** See extractTrainingText. */
export async function parseTrainingText(file: UploadedFile): Promise<TrainingText> {
  const extracted = await parseFile(file);
  const text = cleanExtracted(extracted);
  return { text, characters: countWrittenChars(text), format: extracted.format };
}
