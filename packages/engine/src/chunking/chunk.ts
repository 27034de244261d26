// Chunking for Convert: the text is cut into chunks the model rewrites one at a time, and the
// whitespace between them is kept aside so the rewritten chunks go back into the original layout.
// Offsets are UTF-16 code units, as JavaScript strings index.
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
  const separators: string[] = [];
  let at = 0;
  for (const c of chunks) {
    separators.push(text.slice(at, c.start));
    at = c.end;
  }
  separators.push(text.slice(at));
  return { chunks, separators };
}

/** Puts chunk texts (original or rewritten) back between the separators chunkText returned. */
export function stitch(chunkTexts: readonly string[], separators: readonly string[]): string {
  if (separators.length !== chunkTexts.length + 1) {
    throw new RangeError(
      `stitch needs one separator more than chunks: ${chunkTexts.length} chunks, ${separators.length} separators`,
    );
  }
  let out = separators[0] as string;
  chunkTexts.forEach((t, i) => {
    out += t + (separators[i + 1] as string);
  });
  return out;
}
