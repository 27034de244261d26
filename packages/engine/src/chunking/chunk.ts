// Chunking for Convert: the text is cut into chunks the model rewrites one at a time, and the
// whitespace between them is kept aside so the rewritten chunks go back into the original layout
// (stitch in @ownvoice/shared).
// Offsets are UTF-16 code units, as JavaScript strings index.
import { separatorsOf } from '@ownvoice/shared';
import { packUnits } from './pack.js';
import { splitUnits } from './segment.js';

export interface Chunk {
  index: number;
  /** Offset of the chunk's first character in the original text. */
  start: number;
  /** Offset just past the chunk's last character. */
  end: number;
  /** `original.slice(start, end)`: starts and ends on non-whitespace. */
  text: string;
}

export interface ChunkedText {
  chunks: Chunk[];
  /**
   * The text around the chunks, one more than there are chunks: separators[0] comes before the
   * first chunk, separators[i] between chunks i - 1 and i, the last one after the last chunk.
   * Each is whitespace only (empty where a word longer than maxChars had to be cut).
   */
  separators: string[];
}

export interface ChunkOptions {
  /** Longest chunk, in UTF-16 code units; only a single code point may be longer. */
  maxChars: number;
}

/**
 * Splits text into chunks of at most maxChars at paragraph breaks where it can, otherwise at the
 * start of a Markdown heading, list item or quote, then at sentence ends, then between words.
 * A heading stays with the text after it where both fit. Whitespace-only text gives no chunks.
 */
export function chunkText(text: string, { maxChars }: ChunkOptions): ChunkedText {
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new RangeError(`maxChars must be a positive integer, got ${maxChars}`);
  }
  const ranges = packUnits(splitUnits(text, maxChars), { maxChars });
  const chunks = ranges.map((r, index) => ({ index, start: r.start, end: r.end, text: text.slice(r.start, r.end) }));
  return { chunks, separators: separatorsOf(text, chunks) };
}
