// A text cut into chunks keeps the text around them aside, so rewritten chunks go back into the
// original layout. Shapes, for n chunks:
//   positions   n ranges { start, end } into the text, in order (offsets in UTF-16 code units)
//   separators  n + 1 strings: before the first chunk, between chunks i - 1 and i, after the last
//   stitch(pieces, separators) = separators[0] + pieces[0] + separators[1] + ... + separators[n]
// The engine cuts (chunking), the server sends the positions, and the web, the server and the
// tests put the pieces back with these two functions.

export interface TextSpan {
  start: number;
  end: number;
}

/**
 * The positions made safe to slice with: each starts no earlier than the one before ended and
 * none reaches past the text (positions from elsewhere may overlap or run over).
 */
export function clampSpans(text: string, positions: readonly TextSpan[]): TextSpan[] {
  let cursor = 0;
  return positions.map((position) => {
    const start = Math.min(Math.max(position.start, cursor), text.length);
    const end = Math.min(Math.max(position.end, start), text.length);
    cursor = end;
    return { start, end };
  });
}

/** The text around the chunks at `positions`: one more than there are positions. */
export function separatorsOf(text: string, positions: readonly TextSpan[]): string[] {
  const separators: string[] = [];
  let at = 0;
  for (const span of clampSpans(text, positions)) {
    separators.push(text.slice(at, span.start));
    at = span.end;
  }
  separators.push(text.slice(at));
  return separators;
}

/**
 * Puts chunk texts (original or rewritten) back between the separators. A null piece is left
 * out together with the separator before it. With `final: false` (a stream still running) the
 * text after the last chunk is not added yet. No pieces and no separators stitch to ''.
 */
export function stitch(
  pieces: readonly (string | null)[],
  separators: readonly string[],
  { final = true }: { final?: boolean } = {},
): string {
  if (pieces.length === 0 && separators.length === 0) return '';
  if (separators.length !== pieces.length + 1) {
    throw new RangeError(
      `stitch needs one separator more than chunks: ${pieces.length} chunks, ${separators.length} separators`,
    );
  }
  if (pieces.length === 0) return final ? (separators[0] as string) : '';
  let output = separators[0] as string;
  let first = true;
  pieces.forEach((piece, index) => {
    if (piece === null) return;
    if (!first) output += separators[index] as string;
    output += piece;
    first = false;
  });
  if (final) output += separators[pieces.length] as string;
  return output;
}
