// What a set of rewrites did, measured against their inputs and against writers' own text:
//   content   per rewrite, the share of its input's content words it kept (content-recall.ts)
//   style     Burrows' Delta between all the rewrites together and each writer's text, on a
//             fixed scale whose reference texts exclude the rewrites (StyleScale), with its
//             spread over the rewrites: the Delta of bootstrap resamples of them
// The Voice's evaluation (voice/evaluate.ts) and the two-author harness (harness.ts) both
// measure with this, so the figures a person sees are the ones the tests assert.
import { seededRandom } from '../seeded-random.js';
import { contentRecall } from './content-recall.js';
import { type Spread, spreadOf } from './quantiles.js';
import { type FunctionWordProfile, functionWordProfile, type StyleScale } from './stylometry.js';

export interface StyleDistance {
  /** Delta between all the rewrites and the writer's text. */
  delta: number;
  /** Delta of resamples of the rewrites: how much it depends on which passages were rewritten. */
  spread: Spread;
}

export interface RewriteMeasures {
  recall: Spread;
  style: Record<string, StyleDistance>;
}

/** Resamples for the spread: enough for steady quartiles, cheap on profiles. */
const RESAMPLES = 200;

/**
 * The profile of several texts together, from their profiles (no re-reading), summed word by
 * word: the bootstrap pools 200 resamples, and building each profile's entries
 * as arrays made that a quarter of a second of the event loop.
 */
export function pooledProfile(profiles: readonly FunctionWordProfile[]): FunctionWordProfile {
  const words = profiles.reduce((n, p) => n + p.words, 0);
  const frequencies: Record<string, number> = {};
  for (const w of wordsOf(profiles)) {
    let sum = 0;
    for (const p of profiles) sum += (p.frequencies[w] ?? 0) * p.words;
    frequencies[w] = words ? sum / words : 0;
  }
  return { words, frequencies };
}

/** The words any of `profiles` has, in the order they first appear. */
function wordsOf(profiles: readonly FunctionWordProfile[]): Set<string> {
  const words = new Set<string>();
  for (const p of profiles) for (const w in p.frequencies) words.add(w);
  return words;
}

export function measureRewrites(req: {
  inputs: readonly string[];
  outputs: readonly string[];
  /** Each writer's own text, by name. */
  writers: Readonly<Record<string, string>>;
  scale: StyleScale;
  seed?: number;
}): RewriteMeasures {
  const { inputs, outputs, scale } = req;
  if (inputs.length !== outputs.length || !outputs.length) {
    throw new RangeError('measureRewrites needs one output per input, and at least one');
  }
  const recall = spreadOf(inputs.map((input, i) => contentRecall(input, outputs[i] as string)));
  const profiles = outputs.map(functionWordProfile);
  const all = pooledProfile(profiles);
  const rand = seededRandom(req.seed ?? 0);
  const resamples = Array.from({ length: RESAMPLES }, () =>
    pooledProfile(profiles.map(() => profiles[Math.floor(rand() * profiles.length)] as FunctionWordProfile)),
  );
  const style: Record<string, StyleDistance> = {};
  for (const [name, text] of Object.entries(req.writers)) {
    const writer = functionWordProfile(text);
    style[name] = { delta: scale.delta(all, writer), spread: spreadOf(resamples.map((r) => scale.delta(r, writer))) };
  }
  return { recall, style };
}
