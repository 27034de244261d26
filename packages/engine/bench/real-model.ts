// The bench's section 6 on the real base model, SmolLM2-135M-Instruct (Q4_1), as a person meets
// it: the model itself (found as the tests find it, fetched once per machine where it is not),
// the preset the product trains with on it, the writing a Voice learns from, and Convert's
// rewrite timed from the caller's side. run.ts puts them together and prints the rows.
import path from 'node:path';
import { resolveBaseModel } from '../src/base-model/base-model.js';
import { SMOLLM2_135M } from '../src/base-model/packaged-model.js';
import { authorWriting } from '../src/corpus/authors.js';
import { neutralParagraphs } from '../src/corpus/neutral.js';
import { HOUSE_MODEL_PATH } from '../src/corpus/paths.js';
import type { TextGenerator } from '../src/runtime/text-generator.js';
import type { VoiceEngine } from '../src/runtime/voice-engine.js';
import { REAL_MODEL, REAL_MODEL_CACHE } from '../src/test/real-model.js';
import { rewriteText } from '../src/voice/rewrite.js';
import { presetNameFor, VOICE_PRESETS, type VoicePreset, type VoicePresetName } from '../src/voice/train-voice.js';
import type { WholeVoiceModel } from './whole-voice.js';

/** Neutral paragraphs in the text Convert rewrites: about 900 characters, one chunk at the standard preset. */
export const CONVERT_PARAGRAPHS = 4;

/**
 * The real model's file: the one the tests use (REAL_MODEL), else fetched with pip into the same
 * cache (REAL_MODEL_CACHE), so a machine fetches it once whichever of them asks first. Its name is
 * the file's without .gguf, as the server records a base model's.
 */
export async function realBaseModel(log: (l: string) => void): Promise<WholeVoiceModel> {
  const file = REAL_MODEL ?? (await resolveBaseModel({ spec: SMOLLM2_135M.name, dataDir: REAL_MODEL_CACHE, log })).path;
  return { path: file, name: path.basename(file, '.gguf') };
}

/** The preset the product trains a Voice with on `modelPath` (presetNameFor, as the server picks it). */
export function productPreset(modelPath: string): { name: VoicePresetName; preset: VoicePreset } {
  const name = presetNameFor(modelPath === HOUSE_MODEL_PATH, process.env.OWNVOICE_TRAIN_PRESET);
  return { name, preset: VOICE_PRESETS[name] };
}

/**
 * The first `chars` characters of the house author the Jargon File's writing that the house model
 * never saw (authorWriting): the same text whatever base model learns it.
 */
export function realVoiceText(chars: number): string {
  const writing = authorWriting('jargon');
  if (chars > writing.length) {
    throw new Error(`the Jargon File's reserved writing has ${writing.length} characters, not ${chars}`);
  }
  return writing.slice(0, chars);
}

/** The text Convert rewrites: the first few neutral paragraphs, as a person pastes them. */
export const convertText = (): string => neutralParagraphs().slice(0, CONVERT_PARAGRAPHS).join('\n\n');

export interface ConvertSample {
  /** From starting the rewrite to its first chunk event with text: what a person waits before words appear. */
  firstChunkMs: number;
  /** Tokens generated (rerolled attempts included) over the rewrite's whole time, prompts read included. */
  tokensPerSecond: number;
  tokens: number;
}

/**
 * One Convert of `text` with the awake Voice `voiceId` (the plain base model when absent), through
 * rewriteText as the product runs it, chunked at `maxChars` (the preset's passage size).
 */
export async function measureConvert(
  engine: VoiceEngine,
  text: string,
  options: { voiceId?: string; maxChars: number },
): Promise<ConvertSample> {
  let tokens = 0;
  // Each generation's own count, as llama.cpp reports it: re-tokenizing the rewritten text would
  // miss rerolled attempts and count a token whose text splits differently twice.
  const counting: TextGenerator = {
    complete: (prompt, o = {}) =>
      engine.complete(prompt, {
        ...o,
        onFinish: (end) => {
          tokens += end.tokens;
          o.onFinish?.(end);
        },
      }),
    chat: (messages, o) => engine.chat(messages, o),
    countTokens: (t) => engine.countTokens(t),
  };
  const started = performance.now();
  let firstChunkMs: number | undefined;
  for await (const event of rewriteText(counting, text, options)) {
    if (firstChunkMs === undefined && event.type === 'chunk' && event.text) firstChunkMs = performance.now() - started;
  }
  const seconds = (performance.now() - started) / 1000;
  if (firstChunkMs === undefined) throw new Error('the rewrite wrote nothing');
  return { firstChunkMs, tokensPerSecond: tokens / seconds, tokens };
}
