// A Voice to take home: the package the Voice's page downloads and another OwnVoice imports
// (the engine's voice/voice-package.ts writes and reads it). Its manifest says what the
// adapter needs (the base model, by name and SHA-256 of its file), how it was trained and how it
// measured; the evaluation's figures only, since its samples quote the owner's writing.
import { z } from 'zod';
import {
  MAX_PASTED_CHARS,
  MAX_TOTAL_UPLOAD_BYTES,
  voiceEvaluationSchema,
  voiceNameSchema,
} from './validation/voice.js';

export const VOICE_PACKAGE_FORMAT = 'ownvoice-voice';
export const VOICE_PACKAGE_VERSION = 1;
/** The package's files, at its root. */
export const VOICE_PACKAGE_FILES = {
  manifest: 'manifest.json',
  gguf: 'voice.gguf',
  peftConfig: 'peft/adapter_config.json',
  peftWeights: 'peft/adapter_model.safetensors',
  modelfile: 'Modelfile',
  readme: 'README.md',
} as const;
/** Largest package an import takes: an adapter of a 0.5B model at rank 16, twice, with room. */
export const MAX_VOICE_PACKAGE_BYTES = 300 * 1024 * 1024;
/** Entries a package may have: its six files, and a few an archiver adds (a folder, __MACOSX). */
export const MAX_VOICE_PACKAGE_ENTRIES = 16;
/** The manifest and the PEFT config are a few kilobytes each. */
export const MAX_VOICE_PACKAGE_TEXT_BYTES = 64 * 1024;
/**
 * The most writing one Voice can have been trained on: the pasted text and every uploaded byte
 * (a file gives at most one character per byte of its extracted text).
 */
export const MAX_VOICE_CHARACTERS = MAX_PASTED_CHARS + MAX_TOTAL_UPLOAD_BYTES;
/** Hugging Face's names for the projections an adapter may target (the engine's LORA_TARGETS). */
export const PEFT_TARGET_MODULES = [
  'q_proj',
  'k_proj',
  'v_proj',
  'o_proj',
  'gate_proj',
  'up_proj',
  'down_proj',
] as const;
/** The largest LoRA rank: at or below every projection's smaller side; the engine checks it exactly. */
export const MAX_LORA_RANK = 4096;

export const voicePackageManifestSchema = z.object({
  format: z.literal(VOICE_PACKAGE_FORMAT),
  version: z.literal(VOICE_PACKAGE_VERSION),
  voice: z.object({
    /** Checked as the create form checks a name: an imported Voice's is no less clean. */
    name: voiceNameSchema,
    /** Characters of writing it was trained on. */
    characters: z.number().int().nonnegative().max(MAX_VOICE_CHARACTERS).nullable(),
    /** When its training ended (an ISO 8601 time). */
    trainedAt: z.iso.datetime({ offset: true }),
  }),
  baseModel: z.object({
    /**
     * The model as OWNVOICE_BASE_MODEL names it (`tiny`, `smollm2-135m`, an hf: URI, a file name):
     * the Voice's own base, not the exporting server's (decision 31). Packages made before it was
     * recorded lack it.
     */
    name: z
      .string()
      .min(1)
      .max(500)
      .regex(/^[^\s`]+$/)
      .optional(),
    /** The model file's name. */
    file: z
      .string()
      .min(1)
      .max(300)
      .regex(/^[\w.-]+$/),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    bytes: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    /** Where it is published, as `hf:owner/repo:quant`; null for a model file of one's own. */
    huggingFace: z
      .string()
      .regex(/^hf:[\w.-]+\/[\w.-]+(?::[\w.-]+)?$/)
      .nullable(),
  }),
  training: z.object({
    preset: z.string().max(40),
    rank: z.number().int().positive().max(MAX_LORA_RANK),
    alpha: z.number().positive().max(1e6),
    targetModules: z.array(z.string().max(40)).max(20),
  }),
  /** How it measured when trained, without the samples (they quote the owner's writing). */
  evaluation: voiceEvaluationSchema.omit({ samples: true }).nullable(),
  /** The prompt Convert sends, `{text}` standing for the text to rewrite; the Voice continues it. */
  prompt: z.string().max(1000),
  exportedBy: z.object({ app: z.literal('OwnVoice'), version: z.string().max(40) }),
});
export type VoicePackageManifest = z.infer<typeof voicePackageManifestSchema>;

/**
 * A package's `peft/adapter_config.json`, as the engine's PEFT export writes it (PEFT's LoraConfig
 * fields): exactly these keys. The import checks it against the GGUF adapter, then stores its own
 * rewrite of it, so nothing of a package's text but the validated values is kept.
 */
export const peftAdapterConfigSchema = z
  .object({
    peft_type: z.literal('LORA'),
    task_type: z.literal('CAUSAL_LM'),
    base_model_name_or_path: z.string().max(500),
    r: z.number().int().positive().max(MAX_LORA_RANK),
    lora_alpha: z.number().positive().max(1e6),
    lora_dropout: z.number().min(0).max(1),
    bias: z.literal('none'),
    target_modules: z.array(z.enum(PEFT_TARGET_MODULES)).min(1).max(PEFT_TARGET_MODULES.length),
    fan_in_fan_out: z.literal(false),
    inference_mode: z.boolean(),
    use_rslora: z.literal(false),
  })
  .strict();

export const VOICE_PACKAGE_MESSAGES = {
  notAPackage: 'This file is not an OwnVoice Voice package: download one from a Voice’s page, then import that .zip.',
  tooLarge: `A Voice package is at most ${MAX_VOICE_PACKAGE_BYTES / 1024 / 1024} MB; this file is larger, so it is not one.`,
  otherBaseModel: (theirs: string, ours: string) =>
    `This Voice was trained on the base model ${theirs}, and this OwnVoice runs ${ours}. A Voice works only on the model it was trained on: import it into an OwnVoice that runs ${theirs}.`,
  forkNotExported:
    'A Voice forked from someone else’s public Voice stays in OwnVoice: its author shared it to use here, not to take away.',
  notTrained: 'This Voice has no trained adapter yet: download it once its training has finished.',
  /** A merged model is the base the Voice was trained on plus its adapter: only that base will do. */
  notMergedHere: (theirs: string, ours: string) =>
    `This Voice was trained on the base model ${theirs}, and this OwnVoice runs ${ours}, so it cannot merge the Voice into its base here. Download the Voice package instead: its adapter loads beside ${theirs} in llama.cpp, Ollama and PEFT.`,
  /** The merge failed (no disk, or it ran out of time or memory): what to do instead. */
  mergeFailed: (why: string) =>
    `${why} Try again in a few minutes; meanwhile the Voice package holds the same Voice as an adapter, which llama.cpp, Ollama and PEFT load beside the base model.`,
} as const;
