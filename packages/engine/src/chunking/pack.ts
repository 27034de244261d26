// Groups consecutive units into pieces of at most maxChars, choosing the split points by dynamic
// programming rather than greedily: a greedy fill leaves a scrap at the end of a long paragraph,
// while here every split pays for the boundary it cuts (a paragraph break is free, a sentence
// costs more, a word much more) and every piece pays for the room it leaves unused, so pieces come
// out even and split where a reader would. The same input always gives the same pieces.
import { Break, type Range, type Unit } from './segment.js';

export interface PackOptions {
  maxChars: number;
  /** Pieces shorter than this are avoided wherever a neighbour can take them. */
  minChars?: number;
}

const BREAK_COST: Record<Break, number> = {
  [Break.Paragraph]: 0,
  [Break.Block]: 0.5,
  [Break.Sentence]: 2,
  [Break.Word]: 10,
  [Break.Subword]: 30,
  [Break.Grapheme]: 100,
};
// A heading left at the end of a piece, apart from the text it introduces.
const AFTER_HEADING_COST = 3;
// Above any fill cost (at most 1) and any sentence split, below a word split.
const SHORT_PIECE_COST = 5;

/** The character ranges of the packed pieces, in order. */
export function packUnits(units: readonly Unit[], { maxChars, minChars = 0 }: PackOptions): Range[] {
  const n = units.length;
  // Plain typed arrays: the inner loop runs up to maxChars times per unit.
  const starts = Float64Array.from(units, (u) => u.start);
  const ends = Float64Array.from(units, (u) => u.end);
  const splitCost = Float64Array.from(
    units,
    (u, i) => BREAK_COST[u.breakBefore] + (i > 0 && units[i - 1]?.heading ? AFTER_HEADING_COST : 0),
  );
  const best = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Int32Array(n + 1);
  best[0] = 0;
  for (let j = 1; j <= n; j++) {
    const end = ends[j - 1] as number;
    let bestJ = Number.POSITIVE_INFINITY;
    let fromJ = j - 1;
    for (let i = j - 1; i >= 0; i--) {
      const length = end - (starts[i] as number);
      // A single unit longer than max (one code point) still has to go somewhere.
      if (length > maxChars && i < j - 1) break;
      const slack = length < maxChars ? (maxChars - length) / maxChars : 0;
      let cost = (best[i] as number) + slack * slack;
      if (length < minChars) cost += SHORT_PIECE_COST + (minChars - length) / minChars;
      if (i > 0) cost += splitCost[i] as number;
      if (cost < bestJ) {
        bestJ = cost;
        fromJ = i;
      }
    }
    best[j] = bestJ;
    from[j] = fromJ;
  }
  const pieces: Range[] = [];
  for (let j = n; j > 0; j = from[j] as number) {
    pieces.push({ start: starts[from[j] as number] as number, end: ends[j - 1] as number });
  }
  return pieces.reverse();
}
