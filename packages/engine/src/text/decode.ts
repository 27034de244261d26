// Bytes of a text format (txt, md, html, jsonl) to a string.
import { TextExtractionError } from './errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
// Node's 'windows-1252' decoder reads 0x80-0x9F as Latin-1 control characters; Windows-1252 has
// punctuation there (curly quotes, dashes, the euro sign), mapped here from the WHATWG table.
const latin1 = new TextDecoder('latin1');
const CP1252_HIGH = '€\x81‚ƒ„…†‡ˆ‰Š‹Œ\x8DŽ\x8F\x90‘’“”•–—˜™š›œ\x9DžŸ';
const decodeWindows1252 = (data: Uint8Array) =>
  latin1.decode(data).replace(/[\x80-\x9F]/g, (c) => CP1252_HIGH.charAt(c.charCodeAt(0) - 0x80));

/**
 * UTF-8, with its byte-order mark dropped; bytes that are not valid UTF-8 are read as
 * Windows-1252, the usual encoding of older Western text files. A NUL byte means a binary file or
 * UTF-16 text, neither of which is read.
 */
export function decodeTextBytes(fileName: string, data: Uint8Array): string {
  if (data.includes(0)) throw nulError(fileName);
  try {
    return utf8.decode(data);
  } catch {
    return decodeWindows1252(data);
  }
}

export function nulError(fileName: string): TextExtractionError {
  return new TextExtractionError(
    'NUL_CHARACTERS',
    fileName,
    `${fileName} contains NUL characters: it is binary, or text saved as UTF-16; save it as UTF-8 text`,
  );
}
