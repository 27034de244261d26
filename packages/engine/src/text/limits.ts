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

/** What isolated extraction allows one file (see isolated.ts). */
export const EXTRACTOR_LIMITS = {
  /** V8 heap of an extraction process, in MB. */
  heapMb: 512,
  /** Resident memory of an extraction process (heap plus buffers); it is killed above this. */
  rssBytes: 1024 * 1024 * 1024,
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
