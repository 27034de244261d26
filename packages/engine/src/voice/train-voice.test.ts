// Proof: where the trainer writes a Voice's pairs, the same trainer process trains on them (one
// process started for both, so the model is read once), on one thread as llama.cpp runs the house
// model, and it is gone before the evaluation.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { VoiceEngine } from '../runtime/voice-engine.js';
import { tempDir } from '../test/fixtures.js';
import { TrainerProcess } from '../trainer/python.js';
import { trainVoice, VOICE_PRESETS } from './train-voice.js';

let engine: VoiceEngine;
let dir: string;

beforeAll(async () => {
  engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
  dir = tempDir();
});
afterAll(async () => {
  await engine?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('trainVoice with pairs written on the trainer', () => {
  it('paraphrases and trains in one trainer process, closed before the evaluation', async () => {
    // A dozen passages of the Jargon File, the house model's own kind of text.
    const text = readFileSync(path.join(import.meta.dirname, '../../corpus/jargon.txt'), 'utf8').slice(0, 4000);
    const open = vi.spyOn(TrainerProcess, 'open');
    const close = vi.spyOn(TrainerProcess.prototype, 'close');
    const stages: string[] = [];
    try {
      const voice = await trainVoice({
        engine,
        baseModelPath: HOUSE_MODEL_PATH,
        baseModelName: 'house',
        files: [],
        pastedText: text,
        preset: { ...VOICE_PRESETS.tiny, epochs: 2 },
        workDir: path.join(dir, 'work'),
        outDir: path.join(dir, 'out'),
        version: '1',
        paraphraseOn: 'trainer',
        onProgress: (p) => {
          if (stages.at(-1) !== p.stage) stages.push(p.stage);
          if (p.stage === 'evaluate') expect(close).toHaveBeenCalledTimes(1);
        },
      });
      expect(open).toHaveBeenCalledTimes(1);
      // On llama.cpp's threads for the house model: one (a second only waits on the first).
      expect(open).toHaveBeenCalledWith({ threads: 1 });
      expect(stages).toEqual(['extract', 'pairs', 'train', 'export', 'evaluate']);
      expect(voice.trainPairs).toBeGreaterThan(4);
      expect(voice.heldOut.every((p) => p.generic.length > 0)).toBe(true);
      expect(voice.evaluation).toBeTruthy();
    } finally {
      open.mockRestore();
      close.mockRestore();
    }
  });
});
