// Create Voice rules and messages (name, files, amount of writing), and the Voice as the API shows it.
// The server enforces them on upload; the browser checks the same definitions as you type.
import { z } from 'zod';
import { ID_PATTERN } from '../constants.js';
import { voiceBaseModelSchema } from '../voice-base-model.js';
import { stripNul } from './text.js';

export const VOICE_NAME_MAX = 100;
export const MIN_TRAINING_CHARS = 20_000;
export const RECOMMENDED_TRAINING_CHARS = 40_000;
export const MAX_PASTED_CHARS = 2_000_000;
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_TOTAL_UPLOAD_BYTES = 50 * 1024 * 1024;
export const VOICE_FILE_EXTENSIONS = ['.txt', '.md', '.pdf', '.docx', '.epub', '.html', '.jsonl'] as const;

export const VOICE_MESSAGES = {
  nameRequired: 'Please enter a name for your Voice',
  nameLength: 'Voice name must be 1-100 characters long',
  pastedTooLong: 'Pasted text can be at most 2,000,000 characters',
  // The product's exact words; how characters are counted is said beside it (charsCountedNote).
  tooFewChars: (n: number) =>
    `Training requires at least 20,000 characters. You currently have ${n.toLocaleString('en-US')} characters.`,
  /** Shown beside the count: characters are counted as countWrittenChars counts them. */
  charsCountedNote: 'A run of spaces, tabs or line breaks counts as one character.',
  invalidTypes: (files: string[]) =>
    `Invalid file types: ${files.join(', ')}. Please use: ${VOICE_FILE_EXTENSIONS.join(', ')}`,
  tooLarge: (files: string[]) => `Files too large: ${files.join(', ')}. Maximum size per file: 10 MB`,
  badEncoding: (files: string[]) => `Invalid file encoding detected: ${files.join(', ')}`,
  readError: 'Error reading some files',
} as const;

/** What the name box keeps as the user types: letters, digits, spaces, _ and -, at most 100. */
export const filterVoiceNameInput = (value: string): string =>
  value.replace(/[^A-Za-z0-9 _-]/g, '').slice(0, VOICE_NAME_MAX);

export const voiceNameSchema = z
  .string({ error: VOICE_MESSAGES.nameRequired })
  .transform((v) => filterVoiceNameInput(stripNul(v)).trim())
  .pipe(z.string().min(1, VOICE_MESSAGES.nameRequired).max(VOICE_NAME_MAX, VOICE_MESSAGES.nameLength));

/** .htm is taken as .html. */
export const hasAcceptedExtension = (fileName: string): boolean => {
  const lower = fileName.toLowerCase();
  return VOICE_FILE_EXTENSIONS.some((ext) => lower.endsWith(ext)) || lower.endsWith('.htm');
};

export const VOICE_STATUSES = [
  'pending',
  'training',
  'ready',
  'active',
  'activating',
  'deactivating',
  'failed',
] as const;
export type VoiceStatus = (typeof VOICE_STATUSES)[number];

/** The label a card shows for each status. */
export const VOICE_STATUS_LABELS: Record<VoiceStatus, string> = {
  ready: 'asleep',
  active: 'awake',
  training: 'creating',
  activating: 'waking up',
  deactivating: 'going to sleep',
  pending: 'pending',
  failed: 'failed',
};

/** The stages of a training run, in order (the engine's trainVoice reports them). */
export const VOICE_TRAINING_STAGES = ['extract', 'pairs', 'train', 'export', 'evaluate'] as const;
export type VoiceTrainingStage = (typeof VOICE_TRAINING_STAGES)[number];

/** What the progress page says each stage is doing. */
export const VOICE_STAGE_LABELS: Record<VoiceTrainingStage, string> = {
  extract: 'Reading your writing',
  pairs: 'Preparing training examples',
  train: 'Learning your style',
  export: 'Saving your Voice',
  evaluate: 'Measuring the result',
};

/** A figure's median over several measurements, with its 25th and 75th percentiles. */
export const spreadSchema = z.object({ median: z.number(), low: z.number(), high: z.number(), n: z.number() });

/**
 * How well a Voice writes like its author, measured by the engine on writing it never saw:
 * held-out perplexity of the base model and of the Voice (lower is better); the share of the
 * generic texts' content words the Voice's rewrites kept (content); and style similarity (0..1,
 * from Burrows' Delta over function words) to the author's own text of the Voice's rewrites and
 * of the generic texts they started from (higher is better). Evaluations made before content and
 * spreads were measured lack them.
 */
export const voiceEvaluationSchema = z.object({
  heldOut: z.object({
    baseLoss: z.number(),
    voiceLoss: z.number(),
    basePerplexity: z.number(),
    voicePerplexity: z.number(),
    examples: z.number(),
    /** The perplexity drop (1 − Voice ÷ base) resampled over the held-out pairs. */
    drop: spreadSchema.optional(),
  }),
  content: z.object({ recall: spreadSchema }).optional(),
  style: z.object({
    voiceDelta: z.number(),
    baseDelta: z.number(),
    voiceSimilarity: z.number(),
    baseSimilarity: z.number(),
    samples: z.number(),
    voiceSpread: spreadSchema.optional(),
    baseSpread: spreadSchema.optional(),
  }),
  /**
   * How often rewrites read as the person's, by an authorship classifier trained on their held-out
   * passages against neutral prose: the Voice's rewrites of the plain paragraphs against the base
   * model's of the same ones (shares 0..1, with their spread over the paragraphs), and the
   * classifier's cross-validated accuracy. Evaluations made before it was measured lack it.
   */
  readsAs: z
    .object({
      accuracy: z.number(),
      passages: z.number(),
      voice: z.object({ share: z.number(), spread: spreadSchema }),
      base: z.object({ share: z.number(), spread: spreadSchema }),
    })
    .optional(),
  samples: z.array(z.object({ generic: z.string(), voice: z.string(), original: z.string() })),
});
export type VoiceEvaluation = z.infer<typeof voiceEvaluationSchema>;

export const voiceSchema = z.object({
  _id: z.string().regex(ID_PATTERN),
  name: z.string(),
  status: z.enum(VOICE_STATUSES),
  progress: z.number(),
  statusMessage: z.string().nullable().optional(),
  isPublic: z.boolean(),
  createdAt: z.string(),
  pipeline_id: z.string().nullable(),
  /** The current training stage while training; null otherwise. */
  stage: z.enum(VOICE_TRAINING_STAGES).nullable().optional(),
  /**
   * Seconds left in the training run as of this answer, from the run's own measured pace; null
   * while it is still estimating (and once it ends), 0 once the estimate has passed.
   */
  etaSeconds: z.number().nullable().optional(),
  /** When the training is estimated to end (ISO 8601), while training; null as etaSeconds is. */
  estimatedDoneAt: z.string().nullable().optional(),
  /** Characters of writing the Voice was trained on. */
  characters: z.number().nullable().optional(),
  evaluation: voiceEvaluationSchema.nullable().optional(),
  /** The owner's username (shown on public Voices). */
  ownerName: z.string().optional(),
  /** Whether the caller owns this Voice. */
  isOwner: z.boolean().optional(),
  /** Whether the caller may download it as a package (the owner of a trained Voice that is not a fork). */
  canDownload: z.boolean().optional(),
  /**
   * The base model the Voice was trained on, and whether this server runs it (decision 31): a
   * Voice wakes only on its own. Null until its training starts.
   */
  baseModel: voiceBaseModelSchema.nullable().optional(),
});
export type Voice = z.infer<typeof voiceSchema>;

/** POST /api/loras/count-characters: the characters the server extracts from one file. */
export const characterCountSchema = z.object({ name: z.string(), characters: z.number() });
export type CharacterCount = z.infer<typeof characterCountSchema>;

/** Statuses in which a Voice may be made public: finished ones. */
export const canPublishStatus = (status: VoiceStatus): boolean => status === 'ready' || status === 'active';

/** Statuses during which the dashboard keeps polling, since the server may change them. */
export const MOVING_VOICE_STATUSES: readonly VoiceStatus[] = [
  'training',
  'pending',
  'activating',
  'deactivating',
  'active',
];
