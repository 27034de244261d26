// How much like the person a Voice writes, measured on writing it never trained on:
//  - held-out loss and perplexity of the base model and of the Voice on the person's own text
//    (lower is better: the Voice predicts their words better);
//  - Burrows' Delta over function words between the person's held-out text and (a) the Voice's
//    rewrites of the generic versions, made by the same rewrite Convert runs (rewrite.ts: repeat
//    penalty, stop string, judge and reroll), (b) the generic versions themselves (the base
//    model's outputs). A Voice that writes like the person has the smaller Delta.
import { burrowsDelta, styleSimilarity } from '../eval/stylometry.js';
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { heldOutLoss } from '../trainer/held-out-loss.js';
import type { TrainingExample } from '../trainer/train.js';
import type { RewritePair } from './pairs.js';
import { rewriteWhole } from './rewrite.js';

export interface VoiceEvaluation {
  heldOut: { baseLoss: number; voiceLoss: number; basePerplexity: number; voicePerplexity: number; examples: number };
  style: { voiceDelta: number; baseDelta: number; voiceSimilarity: number; baseSimilarity: number; samples: number };
  /** A few held-out rewrites a person can read. */
  samples: { generic: string; voice: string; original: string }[];
}

/**
 * The Voice's rewrite of each generic text: the same rewrite Convert runs (rewrite.ts), chunked at
 * `maxChars`, the passage size the Voice trained on.
 */
export async function rewriteAll(
  engine: VoiceEngine,
  voiceId: string,
  pairs: readonly RewritePair[],
  { maxChars, signal }: { maxChars: number; signal?: AbortSignal | undefined },
): Promise<string[]> {
  const out: string[] = [];
  for (const p of pairs) {
    out.push((await rewriteWhole(engine, p.generic, { voiceId, maxChars, ...(signal ? { signal } : {}) })).trim());
  }
  return out;
}

export async function evaluateVoice(req: {
  engine: VoiceEngine;
  voiceId: string;
  baseModelPath: string;
  adapterSafetensors: string;
  heldOutPairs: readonly RewritePair[];
  heldOutExamples: TrainingExample[];
  workDir: string;
  seqLen: number;
  padId: number;
  /** The passage size the Voice trained on: its rewrites are chunked at it, as Convert does. */
  maxChars: number;
  maxStyleSamples?: number;
  signal?: AbortSignal;
}): Promise<VoiceEvaluation> {
  const common = { examples: req.heldOutExamples, workDir: req.workDir, seqLen: req.seqLen, padId: req.padId };
  const base = await heldOutLoss({ modelPath: req.baseModelPath, ...common });
  const voice = await heldOutLoss({ modelPath: req.baseModelPath, adapterPath: req.adapterSafetensors, ...common });

  const pairs = req.heldOutPairs.slice(0, req.maxStyleSamples ?? 12);
  const rewrites = await rewriteAll(req.engine, req.voiceId, pairs, { maxChars: req.maxChars, signal: req.signal });
  const originals = pairs.map((p) => p.original);
  const generics = pairs.map((p) => p.generic);
  // z-scores over every individual sample, so the three groups are compared on a shared scale.
  const reference = [...originals, ...generics, ...rewrites];
  const voiceDelta = burrowsDelta(rewrites.join('\n\n'), originals.join('\n\n'), reference);
  const baseDelta = burrowsDelta(generics.join('\n\n'), originals.join('\n\n'), reference);
  return {
    heldOut: {
      baseLoss: base.loss,
      voiceLoss: voice.loss,
      basePerplexity: base.perplexity,
      voicePerplexity: voice.perplexity,
      examples: req.heldOutExamples.length,
    },
    style: {
      voiceDelta,
      baseDelta,
      voiceSimilarity: styleSimilarity(voiceDelta),
      baseSimilarity: styleSimilarity(baseDelta),
      samples: pairs.length,
    },
    samples: pairs.slice(0, 3).map((p, i) => ({ generic: p.generic, voice: rewrites[i] ?? '', original: p.original })),
  };
}
