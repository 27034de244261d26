// Generations as the person sees them: a Voice put to sleep (or deleted) under a generation ends
// it with VOICE_NOT_READY and the reason to read, wherever the generation ran.
import { textDeltas, VoiceNotAwakeError } from '@ownvoice/engine';
import { errors } from '../errors.js';

/**
 * The events of an engine generation, with its failures as the person's errors: a Voice put to
 * sleep (or deleted) under the generation is VOICE_NOT_READY with the reason to read.
 */
export async function* engineErrors<T>(events: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* events;
  } catch (error) {
    if (error instanceof VoiceNotAwakeError) throw errors.voiceNotReady(error.reason);
    throw error;
  }
}

/** A callback-streaming engine call (`onChunk`) as an async iterable of its text deltas. */
export const streamText = (
  signal: AbortSignal,
  run: (onChunk: (text: string) => void) => Promise<unknown>,
): AsyncGenerator<string> => engineErrors(textDeltas(signal, run));
