// A rewrite's events (Convert's, or Create's rephrase stage) as the text a client that cannot be
// told "take that back" receives: each passage whole, once the judge took it (a reroll resets a
// passage the pages show while it is written), put back in the original's layout. A passage the
// Voice could not write comes out as the original has it, and is counted apart. The whole
// Convert and /v1's chat completions answer with it.
import { type ConvertEvent, type CreateEvent, isFailedRewrite, separatorsOf } from '@ownvoice/shared';
import { AppError } from '../errors.js';

/** A piece of the text as it goes out: a passage with the separator before it, or the text's tail. */
export interface TakenPiece {
  text: string;
  /** Whether it is the Voice's writing (a failed passage, and the tail, are not). */
  inVoice: boolean;
}

/** How much of a text the Voice rewrote. */
export interface PassageCount {
  passages: number;
  passagesInVoice: number;
  /** The passages (0-based) that came out as the original has them. */
  failed: number[];
}

/** The text in pieces as passages are taken; throws the error an `error` event carries. */
export async function* takenPassages(
  events: AsyncIterable<ConvertEvent | CreateEvent>,
): AsyncGenerator<TakenPiece, PassageCount> {
  let original = '';
  let spans: { start: number; end: number }[] = [];
  let separators: string[] = [];
  const written: string[] = [];
  const failed: number[] = [];
  let next = 0;
  /** Passage `i` as it goes out, with the separator before it: the Voice's, else the original's. */
  const passage = (i: number): TakenPiece => {
    const text = (written[i] ?? '').trim();
    const before = separators[i] ?? '';
    if (!isFailedRewrite(text)) return { text: before + text, inVoice: true };
    failed.push(i);
    const span = spans[i] as { start: number; end: number };
    return { text: before + original.slice(span.start, span.end).trim(), inVoice: false };
  };
  for await (const event of events) {
    if (event.type === 'error') throw new AppError(503, event.code ?? 'ENGINE_UNAVAILABLE', event.error);
    if (event.type === 'chunk_positions') {
      original = event.baseText;
      spans = event.chunkPositions;
      separators = separatorsOf(original, spans);
    } else if (event.type === 'chunk' || event.type === 'chunk_reroll') {
      // Passages are written in order: a later one's first event closes those before it.
      for (; next < event.chunkIndex; next++) yield passage(next);
      written[event.chunkIndex] = event.type === 'chunk' ? (written[event.chunkIndex] ?? '') + event.text : '';
    } else if (event.type === 'complete') {
      for (; next < spans.length; next++) yield passage(next);
      const tail = separators[spans.length] ?? '';
      if (tail) yield { text: tail, inVoice: false };
    }
  }
  return { passages: spans.length, passagesInVoice: spans.length - failed.length, failed };
}

/** All of it: the whole text and its count; `onPiece` sees each piece as it is taken. */
export async function wholeText(
  pieces: AsyncGenerator<TakenPiece, PassageCount>,
  onPiece: (piece: TakenPiece) => void = () => {},
): Promise<{ text: string } & PassageCount> {
  let text = '';
  for (let step = await pieces.next(); ; step = await pieces.next()) {
    if (step.done) return { text, ...step.value };
    onPiece(step.value);
    text += step.value.text;
  }
}
