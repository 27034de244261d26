// What a whole Voice would take where the bench does not run one in full, projected stage by
// stage from the measured run's own rates, each stage with its basis:
//  - more writing (200,000 characters): the pairs per passage paraphrased, training per training
//    pair (its steps and held-out passes grow with the pairs), the other stages as measured (the
//    evaluation rewrites the same texts whatever the upload's size);
//  - the default model's shape (360M): each stage times how much slower its kind of work ran on
//    360M than on 135M in a short measurement beside it (paraphrases on the pairs stage's own
//    paraphraser for pairs, llama.cpp's generation for evaluate, training steps in the preset's
//    precision for train).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from '../src/corpus/paths.js';
import { holdOut, splitPassages, spreadEvenly } from '../src/text/passages.js';
import { VOICE_PRESETS, VOICE_STAGES, type VoiceStage } from '../src/voice/train-voice.js';
import type { Summary } from './stats.js';

export interface StageProjection {
  stage: VoiceStage;
  seconds: number;
  basis: string;
}

export interface VoiceSize {
  passages: number;
  trainPairs: number;
}

/** The passages and training pairs trainVoice makes of `chars` characters of the Jargon File. */
export function voiceSizeOf(chars: number): VoiceSize {
  const jargon = readFileSync(path.join(CORPUS_DIR, 'jargon.txt'), 'utf8');
  const text = jargon.slice(0, jargon.lastIndexOf('\n\n', chars));
  const { passageMaxChars, maxPassages } = VOICE_PRESETS.standard;
  const all = splitPassages(text, { maxChars: passageMaxChars, minChars: Math.floor(passageMaxChars / 3) });
  const passages = spreadEvenly(all, maxPassages);
  return { passages: passages.length, trainPairs: holdOut(passages).train.length };
}

/** Each stage at `to`'s size, from the medians `seconds` of runs of `from`'s size. */
export function projectMoreWriting(
  seconds: Record<VoiceStage, number>,
  from: VoiceSize,
  to: VoiceSize,
): StageProjection[] {
  return VOICE_STAGES.map((stage) => {
    if (stage === 'pairs') {
      const each = seconds.pairs / from.passages;
      return { stage, seconds: each * to.passages, basis: `${each.toFixed(1)} s a passage x ${to.passages}` };
    }
    if (stage === 'train') {
      const each = seconds.train / from.trainPairs;
      return { stage, seconds: each * to.trainPairs, basis: `${each.toFixed(1)} s a training pair x ${to.trainPairs}` };
    }
    return { stage, seconds: seconds[stage], basis: 'as measured' };
  });
}

/** How many times as long a kind of work took on the other model, and what it ran on. */
export interface Slower {
  summary: Summary;
  on: string;
}

/**
 * Each stage on another model, from how much slower its own kind of work ran there: the pairs'
 * paraphrases on the paraphraser the Voice's pairs stage used, llama.cpp's generation for the
 * evaluation's rewrites, training steps for train.
 */
export function projectOtherModel(
  seconds: Record<VoiceStage, number>,
  slower: Record<'pairs' | 'train' | 'evaluate', Slower>,
): StageProjection[] {
  return VOICE_STAGES.map((stage) => {
    const kind = stage === 'pairs' || stage === 'train' || stage === 'evaluate' ? slower[stage] : null;
    const factor = kind?.summary.median ?? 1;
    return {
      stage,
      seconds: seconds[stage] * factor,
      basis: kind ? `x ${factor.toFixed(2)} (${kind.on} on 360M vs 135M)` : 'as measured',
    };
  });
}
