// The request fields completions and chat completions share, as vLLM's request models take them:
// unknown fields are accepted and ignored (vLLM's models allow extra fields and only log them),
// a known field of the wrong type or out of range is a 400. Besides OpenAI's own sampling fields
// this takes vLLM's extras `repetition_penalty` and `ignore_eos`.
import type { GenerateOptions } from '@ownvoice/engine';
import { z } from 'zod';

/** Most stop strings one request may give, and the longest each may be. */
const MAX_STOP_STRINGS = 16;
const MAX_STOP_LENGTH = 1000;

const stopString = z.string().max(MAX_STOP_LENGTH);

export const samplingFields = {
  model: z.string().max(500).nullish(),
  max_tokens: z.number().int().min(1, 'max_tokens must be at least 1').nullish(),
  temperature: z.number().min(0, 'temperature must be non-negative').nullish(),
  top_p: z.number().gt(0, 'top_p must be in (0, 1]').max(1, 'top_p must be in (0, 1]').nullish(),
  seed: z.number().int().nullish(),
  stop: z.union([stopString, z.array(stopString).max(MAX_STOP_STRINGS)]).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
  /** vLLM's extra: penalise tokens seen before (1 = off). */
  repetition_penalty: z.number().gt(0, 'repetition_penalty must be greater than zero').nullish(),
  /** vLLM's extra: keep writing past the end-of-text token. */
  ignore_eos: z.boolean().nullish(),
  /** One choice per request: vLLM's n > 1 is not served here. */
  n: z.number().int().min(1).max(1, 'this server answers one choice per request (n must be 1)').nullish(),
};

type SamplingBody = { [K in keyof typeof samplingFields]?: z.infer<(typeof samplingFields)[K]> };

export type SamplingOptions = Pick<
  GenerateOptions,
  'temperature' | 'topP' | 'seed' | 'stop' | 'repeatPenalty' | 'ignoreEos'
>;

/** The engine's settings for a request, with OpenAI's and vLLM's defaults (temperature 1, top_p 1). */
export function samplingOptions(body: SamplingBody): SamplingOptions {
  const stop = (typeof body.stop === 'string' ? [body.stop] : (body.stop ?? [])).filter((s) => s.length > 0);
  return {
    temperature: body.temperature ?? 1,
    ...(body.top_p != null && body.top_p < 1 ? { topP: body.top_p } : {}),
    // llama.cpp takes a 32-bit seed; vLLM takes any integer.
    ...(body.seed != null ? { seed: body.seed >>> 0 } : {}),
    ...(stop.length ? { stop } : {}),
    ...(body.repetition_penalty != null ? { repeatPenalty: body.repetition_penalty } : {}),
    ...(body.ignore_eos ? { ignoreEos: true } : {}),
  };
}
