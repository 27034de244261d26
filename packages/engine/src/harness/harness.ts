// The two-author harness: does a Voice keep the content and move the style? One Voice is trained
// on each house author's reserved writing (authors.ts: text the house model never saw); both
// Voices and the plain base model then rewrite the same neutral paragraphs, modern prose by
// neither author (neutral.ts), with Convert's rewrite. Measured (rewrite-measures.ts):
//   content     per paragraph, the share of its content words the rewrite kept
//   style       Burrows' Delta of all of a model's rewrites to each author's writing, on a scale
//               of passages by both authors (no rewrite among them), with its spread
//   attribution a Voice is attributed to the author its rewrites are nearer; `confusion` is the
//               share of Voices attributed to their own author (1: each Voice sounds like its own)
//   perplexity  the Voice's held-out perplexity on its author's text against the base model's
// The same code runs on any base model (`npm run eval -- --base MODEL`): nothing in it knows the
// house model, only the house authors' text.
import path from 'node:path';
import { AUTHOR_NAMES, authorWriting, HOUSE_AUTHORS, type HouseAuthor } from '../corpus/authors.js';
import { neutralParagraphs } from '../corpus/neutral.js';
import type { Spread } from '../eval/quantiles.js';
import { measureRewrites, type RewriteMeasures } from '../eval/rewrite-measures.js';
import { StyleScale } from '../eval/stylometry.js';
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { rewriteAll, styleSamples } from '../voice/evaluate.js';
import { type TrainedVoice, trainVoice, type VoicePreset, type VoiceProgress } from '../voice/train-voice.js';

/** Targets the house setup is held to (the tests assert them; the bench prints them). */
export const HARNESS_TARGETS = { confusion: 1, recall: 0.6, perplexityDrop: 0.2 } as const;

export interface HarnessVoice {
  author: HouseAuthor;
  voice: TrainedVoice;
  progress: VoiceProgress[];
  /** The Voice's rewrites of the neutral paragraphs. */
  rewrites: string[];
  measures: RewriteMeasures;
  /** The author whose writing its rewrites are nearer, by Delta. */
  attributedTo: HouseAuthor;
  /** 1 - Voice perplexity / base perplexity, on the author's held-out text. */
  perplexityDrop: number;
}

export interface HarnessReport {
  /** The neutral paragraphs every model rewrote. */
  inputs: string[];
  /** The neutral paragraphs themselves, measured as if they were rewrites: where rewriting starts. */
  asGiven: RewriteMeasures;
  /** The plain base model's rewrites. */
  base: RewriteMeasures;
  voices: HarnessVoice[];
  confusion: number;
}

export async function runHarness(req: {
  engine: VoiceEngine;
  baseModelPath: string;
  baseModelName: string;
  preset: VoicePreset;
  workDir: string;
  threads?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
}): Promise<HarnessReport> {
  const log = req.log ?? (() => {});
  // Each Voice rewrites every neutral paragraph, whatever its preset's own evaluation rewrites:
  // attribution is measured on all of them.
  const { evaluationParagraphs: _every, ...preset } = req.preset;
  const trained: { author: HouseAuthor; voice: TrainedVoice; progress: VoiceProgress[] }[] = [];
  for (const author of HOUSE_AUTHORS) {
    log(`training a Voice on ${AUTHOR_NAMES[author]}`);
    const progress: VoiceProgress[] = [];
    const outDir = path.join(req.workDir, author);
    const voice = await trainVoice({
      engine: req.engine,
      baseModelPath: req.baseModelPath,
      baseModelName: req.baseModelName,
      files: [{ name: `${author}.txt`, data: Buffer.from(authorWriting(author)) }],
      preset,
      workDir: path.join(outDir, 'work'),
      outDir,
      version: 'harness',
      heldOutFraction: 0.2,
      ...(req.threads ? { threads: req.threads } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      onProgress: (p) => progress.push(p),
    });
    trained.push({ author, voice, progress });
  }

  const inputs = neutralParagraphs();
  const writers = Object.fromEntries(HOUSE_AUTHORS.map((a) => [a, authorWriting(a)]));
  const scale = new StyleScale(HOUSE_AUTHORS.flatMap((a) => styleSamples(writers[a] as string)));
  const measure = (outputs: string[]) => measureRewrites({ inputs, outputs, writers, scale });

  log(`the base model rewrites ${inputs.length} neutral paragraphs`);
  const base = measure(
    await rewriteAll(req.engine, undefined, inputs, { maxChars: req.preset.passageMaxChars, signal: req.signal }),
  );
  const voices: HarnessVoice[] = [];
  for (const { author, voice, progress } of trained) {
    // The Voice's own evaluation rewrote the same paragraphs with the same greedy rewrite.
    const rewrites = voice.neutralRewrites;
    const measures = measure(rewrites);
    const { basePerplexity, voicePerplexity } = voice.evaluation.heldOut;
    voices.push({
      author,
      voice,
      progress,
      rewrites,
      measures,
      attributedTo: nearest(measures),
      perplexityDrop: 1 - voicePerplexity / basePerplexity,
    });
  }
  return {
    inputs,
    asGiven: measure(inputs),
    base,
    voices,
    confusion: voices.filter((v) => v.attributedTo === v.author).length / voices.length,
  };
}

const nearest = (m: RewriteMeasures): HouseAuthor =>
  HOUSE_AUTHORS.reduce((best, a) => ((m.style[a]?.delta ?? Infinity) < (m.style[best]?.delta ?? Infinity) ? a : best));

const range = (s: Spread, digits: number) =>
  `${s.median.toFixed(digits)} (${s.low.toFixed(digits)}–${s.high.toFixed(digits)})`;

/** The report as a Markdown table with the targets, for the bench and the command line. */
export function formatHarness(report: HarnessReport): string[] {
  const delta = (m: RewriteMeasures, a: HouseAuthor) => {
    const d = m.style[a];
    return d ? `${d.delta.toFixed(3)} (${d.spread.low.toFixed(3)}–${d.spread.high.toFixed(3)})` : '';
  };
  const rows: [string, RewriteMeasures, string][] = [
    ['neutral input', report.asGiven, ''],
    ['base model', report.base, ''],
    ...report.voices.map((v): [string, RewriteMeasures, string] => [
      `${v.author} Voice`,
      v.measures,
      `${(v.perplexityDrop * 100).toFixed(0)}%`,
    ]),
  ];
  const t = HARNESS_TARGETS;
  return [
    `${report.inputs.length} neutral paragraphs; Delta median of all rewrites (25th–75th percentile of resamples); recall median (quartiles)`,
    '',
    '| rewrites by | content-word recall | Delta to kjv | Delta to jargon | perplexity drop |',
    '|---|---|---|---|---|',
    ...rows.map(
      ([who, m, drop]) => `| ${who} | ${range(m.recall, 2)} | ${delta(m, 'kjv')} | ${delta(m, 'jargon')} | ${drop} |`,
    ),
    '',
    `confusion (Voices nearer their own author): ${report.confusion} (target ${t.confusion})`,
    `content-word recall target >= ${t.recall}; perplexity drop target >= ${t.perplexityDrop * 100}%`,
  ];
}
