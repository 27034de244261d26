// Bounds on what one uploaded file may cost to read. Files come from anyone signed in, so every
// amplification (compression, repeated references, parser blow-ups) is capped before it can take
// memory or time from the server; a file over a bound is refused as unreadable.
import { MAX_FILE_BYTES } from '@ownvoice/shared';

/**
 * The most text one file may give, in UTF-16 code units: as much as the largest plain-text file
 * accepted holds. Real writing never comes out of a file much larger than the file itself.
 */
export const MAX_EXTRACTED_CHARS = MAX_FILE_BYTES;

/** One zip entry (docx, epub) may inflate to at most this many bytes; checked while inflating. */
export const MAX_ZIP_ENTRY_BYTES = 64 * 1024 * 1024;
/** All entries of one zip, together, may inflate to at most this many bytes. */
export const MAX_ZIP_TOTAL_BYTES = 192 * 1024 * 1024;
/** Entries in one zip's central directory. */
export const MAX_ZIP_ENTRIES = 20_000;
/** Chapters in one EPUB's reading order; each manifest item is read at most once however often it is listed. */
export const MAX_EPUB_SPINE_ITEMS = 10_000;
/** One compressed PDF stream may decode to at most this many bytes, and all of a PDF's together to MAX_PDF_DECODED_BYTES. */
export const MAX_PDF_STREAM_BYTES = 64 * 1024 * 1024;
export const MAX_PDF_DECODED_BYTES = 256 * 1024 * 1024;

/**
 * How deep elements may nest in a page, an EPUB chapter or package file, or a Word document's XML
 * (nesting.ts). Browsers' HTML parsers (WebKit, Chromium) stop nesting at 512, and real pages stay
 * under a hundred; the readers behind it recurse per level and overflowed their stacks from about
 * 1,900, so this leaves them more than three times the room they need.
 */
export const MAX_MARKUP_DEPTH = 512;

/**
 * Bounds on remark's Markdown parser, micromark, whose work grows faster than the text in places;
 * markdown-work.ts estimates it in one pass. Lists and quotes on one line: markdown-it stops
 * nesting at 100 by default, and the deepest of 1,762 real Markdown files (READMEs, changelogs,
 * Node's and Rust's documentation) nests 7.
 */
export const MAX_MARKDOWN_DEPTH = 100;
/**
 * Inline steps over the whole text. Measured on two busy cores, the dearest shape (emphasis nested
 * in emphasis) costs 0.09 µs a step, so this is at most 1.5 s; the most any of the 1,762 files
 * needed was 4.3 million (Rust's 0.9 MB changelog), a 10 MB book with emphasis and a link in
 * every paragraph 2.3 million.
 */
export const MAX_MARKDOWN_INLINE_WORK = 15_000_000;
/**
 * Tokens copied as lists and quotes close. The dearest shape (a quote on every other line) costs
 * 0.027 µs a token there, so this is at most 3 s; Rust's changelog needed 42 million. A book with
 * a quote and a list every 25 paragraphs needs 70 million at 5 MB (read in 14 s) and 270 million
 * at 10 MB, which is refused: unbounded, it ran out of memory after 37 s.
 */
export const MAX_MARKDOWN_BLOCK_WORK = 100_000_000;

/**
 * What isolated extraction allows one file (see isolated.ts), from the largest files an upload
 * takes (10 MB of prose as text, JSON Lines, HTML and EPUB, 9.4 million characters in a Word
 * document, an 8 MB PDF): each was read with a heap of 256 MB as well, and their readers peaked
 * at 390-410 MB resident, the PDF's at 580 MB.
 */
export const EXTRACTOR_LIMITS = {
  /** V8 heap of an extraction process, in MB: half again what the largest files were read with. */
  heapMb: 384,
  /** Resident memory of an extraction process (heap plus buffers); it is killed above this. */
  rssBytes: 1024 * 1024 * 1024,
  /**
   * A reader still this large after a file (it collects its garbage before answering) exits and
   * a fresh one takes its place, so no reader waits holding more: one starts at 130 MB, and none
   * of the hostile files (hostile.test.ts) leaves it above 215 MB.
   */
  keepRssBytes: 200 * 1024 * 1024,
  /** Time to read one file: a base plus a share per megabyte of the file. */
  baseMs: 5_000,
  msPerMb: 3_000,
  /** Extraction processes at once; further files wait their turn. */
  processes: 2,
  /** An idle extraction process exits after this long. */
  idleMs: 60_000,
} as const;

export const extractionTimeLimitMs = (bytes: number): number =>
  Math.round(EXTRACTOR_LIMITS.baseMs + (EXTRACTOR_LIMITS.msPerMb * bytes) / (1024 * 1024));

/** A file went over one of the bounds above. */
export class ExtractionLimitError extends Error {}
