// Records three runs of trainVoice on the house model (tiny preset) into
// src/voice/training-estimate.recorded.ts, the progress the time-left estimate's tests replay.
// Run it again when the stages change what they do (it takes a few minutes on two cores):
//   npm run record-training -w packages/engine
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { corpusText, reservedRange } from '../src/corpus/authors.js';
import { HOUSE_MODEL_PATH } from '../src/corpus/paths.js';
import { BATCH_SEQUENCES, VoiceEngine } from '../src/runtime/voice-engine.js';
import { trainVoice, VOICE_PRESETS } from '../src/voice/train-voice.js';
import type { RecordedRun } from '../src/voice/training-estimate.recorded.js';

const RECORDED_FILE = path.join(import.meta.dirname, '../src/voice/training-estimate.recorded.ts');
const SIZES = [21_000, 40_000, 120_000];

/** `chars` characters of the Jargon File from the slice the house model never trained on, cut at a paragraph. */
function writing(chars: number): string {
  const text = corpusText('jargon');
  const { start } = reservedRange(text);
  return text.slice(start, text.lastIndexOf('\n\n', start + chars));
}

async function record(engine: VoiceEngine, chars: number): Promise<RecordedRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-record-'));
  const run: RecordedRun = {
    characters: chars,
    pairs: 0,
    trainPairs: 0,
    trainTotal: 0,
    pairBatch: BATCH_SEQUENCES,
    pairsAt: [],
    pairsEnd: 0,
    trainStart: 0,
    stepsAt: [],
    trainEnd: 0,
    evaluateStart: 0,
    end: 0,
  };
  let origin: number | undefined;
  const at = () => Math.round(performance.now() - (origin ?? 0));
  try {
    const trained = await trainVoice({
      engine,
      baseModelPath: HOUSE_MODEL_PATH,
      baseModelName: 'ownvoice-tiny',
      files: [{ name: 'writing.txt', data: Buffer.from(writing(chars)) }],
      preset: VOICE_PRESETS.tiny,
      workDir: path.join(dir, 'work'),
      outDir: path.join(dir, 'out'),
      version: 'v1',
      onProgress: (p) => {
        if (p.stage === 'pairs' && origin === undefined) origin = performance.now();
        const done = /\((\d+)\/(\d+)\)/.exec(p.message);
        const step = /step (\d+) of up to (\d+)/.exec(p.message);
        if (p.stage === 'pairs' && done) {
          run.pairs = Number(done[2]);
          run.pairsAt.push(at());
        } else if (p.stage === 'pairs') {
          // The pairs' last report; training is asked for right after it.
          run.pairsEnd = at();
          run.trainStart = run.pairsEnd;
        } else if (p.stage === 'train' && step) {
          run.trainTotal = Number(step[2]);
          run.stepsAt.push(at());
        } else if (p.stage === 'train') run.trainEnd = at();
        else if (p.stage === 'evaluate' && run.evaluateStart === 0) run.evaluateStart = at();
      },
    });
    run.end = at();
    run.trainPairs = trained.trainPairs;
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const engine = await VoiceEngine.start({ modelPath: HOUSE_MODEL_PATH });
const runs: RecordedRun[] = [];
try {
  for (const chars of SIZES) {
    runs.push(await record(engine, chars));
    console.log(`${chars} characters: ${(runs.at(-1)?.end ?? 0) / 1000} s`);
  }
} finally {
  await engine.dispose();
}
const source = `${readHeader()}export const RECORDED_RUNS: RecordedRun[] = ${JSON.stringify(runs, null, 2)};\n`;
writeFileSync(RECORDED_FILE, source);
console.log(`wrote ${RECORDED_FILE}; format it with biome`);

/** The file up to its data: the comment and the interface stay as written. */
function readHeader(): string {
  const text = readFileSync(RECORDED_FILE, 'utf8');
  return text.slice(0, text.indexOf('export const RECORDED_RUNS'));
}
