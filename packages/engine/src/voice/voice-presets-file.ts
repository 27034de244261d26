// The Voice presets' trainer settings, kept where the Python trainer reads them
// (python/ownvoice_trainer/voice_presets.json): the GPU bench (gpu_bench.py) runs on machines with
// Python and PyTorch but no Node.js, so it cannot ask this package. VOICE_PRESETS stays the one
// source: the file is generated from it (`npm run presets -w packages/engine`), and a test fails
// while it is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TRAINER_DIR } from '../trainer/python.js';
import { trainerSettings } from '../trainer/train.js';
import { VOICE_PRESETS } from './train-voice.js';

export const VOICE_PRESETS_FILE = path.join(TRAINER_DIR, 'ownvoice_trainer', 'voice_presets.json');

/** The file's content: each preset's `train` request settings, its passage sizes and its evaluation's paragraphs. */
export function voicePresetsJson(): string {
  const presets = Object.fromEntries(
    Object.entries(VOICE_PRESETS).map(([name, p]) => [
      name,
      {
        ...trainerSettings(p),
        passage_max_chars: p.passageMaxChars,
        max_passages: p.maxPassages,
        ...(p.evaluationParagraphs ? { evaluation_paragraphs: p.evaluationParagraphs } : {}),
      },
    ]),
  );
  return `${JSON.stringify({ generated_from: 'packages/engine/src/voice/train-voice.ts (VOICE_PRESETS)', ...presets }, null, 2)}\n`;
}

export const voicePresetsFileIsCurrent = (): boolean => readFileSync(VOICE_PRESETS_FILE, 'utf8') === voicePresetsJson();

export function writeVoicePresetsFile(): void {
  writeFileSync(VOICE_PRESETS_FILE, voicePresetsJson());
}
