// Proofs on the tiny house model: training a Voice lowers held-out loss on the author's own
// text, and two Voices trained on two different authors (the King James Bible and the Jargon
// File) each write closer to their own author than to the other, by Burrows' Delta, when both
// rewrite the same neutral text (neither author's content, so only style can tell them apart).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { burrowsDelta } from '../eval/stylometry.js';
import { CORPUS_DIR, HOUSE_MODEL_PATH } from '../house-model/paths.js';
import { VoiceEngine } from '../runtime/voice-engine.js';
import { tempDir } from '../test/fixtures.js';
import { rewriteAll } from './evaluate.js';
import type { RewritePair } from './pairs.js';
import { type TrainedVoice, trainVoice, VOICE_PRESETS, type VoiceProgress } from './train-voice.js';

let dir: string;
let engine: VoiceEngine;
const voices = {} as Record<
  'kjv' | 'jargon',
  { voice: TrainedVoice; heldOut: RewritePair[]; progress: VoiceProgress[] }
>;

// Plain modern prose, by neither author.
const NEUTRAL = [
  'The team released a new version of the app last week. It loads faster, uses less memory and fixes several problems that users reported in the spring.',
  'Our office will be closed on Monday for the public holiday. Orders placed over the weekend will be shipped on Tuesday morning, and support will answer e-mails then.',
  'The city council voted to extend the bus line to the new hospital. Construction starts in March and should take about eight months to finish.',
  'To reset your password, open the settings page, choose security, and follow the instructions in the message we send to your e-mail address.',
  'The report shows that sales grew in every region except the north, where a late harvest reduced demand for farm equipment during the summer.',
  'Visitors can park in the garage next to the museum. Tickets are cheaper online, and children under twelve enter for free on weekends.',
];

// 14,000 characters of each author, from the middle of each text.
const sample = (file: string) => {
  const text = readFileSync(path.join(CORPUS_DIR, file), 'utf8');
  const start = text.indexOf('\n\n', Math.floor(text.length / 2)) + 2;
  return text.slice(start, text.indexOf('\n\n', start + 14_000));
};

beforeAll(async () => {
  dir = tempDir();
  engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
  for (const author of ['kjv', 'jargon'] as const) {
    const progress: VoiceProgress[] = [];
    const outDir = path.join(dir, author);
    const voice = await trainVoice({
      engine,
      baseModelPath: HOUSE_MODEL_PATH,
      baseModelName: 'ownvoice-tiny',
      files: [{ name: `${author}.txt`, data: Buffer.from(sample(`${author}.txt`)) }],
      preset: VOICE_PRESETS.tiny,
      workDir: path.join(outDir, 'work'),
      outDir,
      version: 'v1',
      heldOutFraction: 0.15,
      threads: 2,
      onProgress: (p) => progress.push(p),
    });
    voices[author] = { voice, heldOut: voice.heldOut, progress };
  }
}, 900_000);

afterAll(async () => {
  await engine?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('training a Voice', () => {
  it('reports its stages in order with a percentage that only grows to 100', () => {
    for (const { progress } of Object.values(voices)) {
      const stages = [...new Set(progress.map((p) => p.stage))];
      expect(stages).toEqual(['extract', 'pairs', 'train', 'export', 'evaluate']);
      for (let i = 1; i < progress.length; i++) {
        expect(progress[i]?.percent).toBeGreaterThanOrEqual((progress[i - 1]?.percent ?? 0) - 1e-9);
      }
      expect(progress.at(-1)?.percent).toBe(100);
    }
  });

  it('lowers held-out loss on the author’s own text', () => {
    for (const { voice } of Object.values(voices)) {
      const { baseLoss, voiceLoss, basePerplexity, voicePerplexity } = voice.evaluation.heldOut;
      expect(voiceLoss).toBeLessThan(baseLoss);
      expect(voicePerplexity).toBeLessThan(basePerplexity);
    }
  });

  it('makes each Voice write closer to its own author than to the other', async () => {
    const originals = {
      kjv: voices.kjv.heldOut.map((p) => p.original).join('\n\n'),
      jargon: voices.jargon.heldOut.map((p) => p.original).join('\n\n'),
    };
    for (const author of ['kjv', 'jargon'] as const) {
      const other = author === 'kjv' ? 'jargon' : 'kjv';
      await engine.wake(author, voices[author].voice.adapterPath);
      const rewrites = await rewriteAll(engine, author, NEUTRAL, { maxChars: VOICE_PRESETS.tiny.passageMaxChars });
      await engine.sleep(author);
      const written = rewrites.join('\n\n');
      const reference = [
        ...rewrites,
        ...voices.kjv.heldOut.map((p) => p.original),
        ...voices.jargon.heldOut.map((p) => p.original),
      ];
      const toOwn = burrowsDelta(written, originals[author], reference);
      const toOther = burrowsDelta(written, originals[other], reference);
      expect(toOwn, `${author} Voice: Delta to own author vs the other`).toBeLessThan(toOther);
    }
  });

  it('exports the adapter for llama.cpp and PEFT, with an evaluation a person can read', () => {
    const { voice } = voices.kjv;
    expect(path.basename(voice.adapterPath)).toBe('voice-v1.gguf');
    expect(readFileSync(path.join(voice.peftDir, 'adapter_config.json'), 'utf8')).toContain('"peft_type": "LORA"');
    const { samples, content, style } = voice.evaluation;
    expect(samples.length).toBeGreaterThan(0);
    expect(content.recall.n).toBe(style.samples);
    expect(content.recall.low).toBeLessThanOrEqual(content.recall.high);
    expect(style.voiceSpread.low).toBeLessThanOrEqual(style.voiceSpread.high);
  });
});
