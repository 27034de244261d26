// A Voice belongs to the base model it was trained on (decision 31): the Voice's record of it, as
// the API shows it, and the words the server and the web app say about it.
import { z } from 'zod';

/**
 * `recorded`: the model is known by its file's SHA-256, recorded when the Voice was trained (or
 * carried from the Voice it was forked from, or the package it was imported from). `unknown`: the
 * Voice was trained before OwnVoice recorded it.
 */
export const VOICE_BASE_MODEL_STATES = ['recorded', 'unknown'] as const;
export type VoiceBaseModelState = (typeof VOICE_BASE_MODEL_STATES)[number];

/**
 * Whether the base model this server runs now is the Voice's: `same` (it wakes), `other` (it does
 * not wake here), `unknown` (its base was not recorded and nothing says it is another: it wakes,
 * with a warning; or this server's base model is not ready yet).
 */
export const BASE_MODEL_FITS = ['same', 'other', 'unknown'] as const;
export type BaseModelFit = (typeof BASE_MODEL_FITS)[number];

export const voiceBaseModelSchema = z.object({
  state: z.enum(VOICE_BASE_MODEL_STATES),
  /** As OWNVOICE_BASE_MODEL names it: `tiny`, `smollm2-135m`, an hf: URI, a file name; null when unknown. */
  name: z.string().nullable(),
  /**
   * The model file's name. For an `unknown` base, the name its adapter's PEFT export gives (the
   * file name with .gguf), when it has one: evidence, not proof.
   */
  file: z.string().nullable(),
  /** The SHA-256 of the model file; null when unknown. */
  sha256: z.string().nullable(),
  /** The model file's size in bytes; null when unknown. */
  bytes: z.number().nullable(),
  /** Whether this server runs it now. */
  onThisServer: z.enum(BASE_MODEL_FITS),
  /** The base model this server runs now (as OWNVOICE_BASE_MODEL names it); null while it is not ready. */
  serverModel: z.string().nullable(),
});
export type VoiceBaseModel = z.infer<typeof voiceBaseModelSchema>;

/** A model in a sentence: its name, its file where that says more, and the start of its SHA-256. */
export function describeBaseModel(model: { name: string | null; file: string | null; sha256: string | null }): string {
  const label = model.name ?? model.file ?? 'an unrecorded model';
  const details = [
    model.file && model.file !== model.name ? model.file : null,
    model.sha256 ? `SHA-256 ${model.sha256.slice(0, 12)}…` : null,
  ].filter((part): part is string => part !== null);
  return details.length > 0 ? `${label} (${details.join(', ')})` : label;
}

export const VOICE_BASE_MODEL_MESSAGES = {
  /** Why a Voice cannot wake on this server: what it was trained on, what runs here, and the two ways out. */
  otherBaseModel: (theirs: string, ours: string, theirName: string) =>
    `This Voice was trained on the base model ${theirs}, and this OwnVoice runs ${ours}. A Voice writes only on the model it was trained on, so it cannot wake here: create it again from your writing to use it on this model, or run OwnVoice on ${theirName} (the OWNVOICE_BASE_MODEL setting) to wake it.`,
  /** The same, for a Voice whose base was not recorded but whose files name another model file. */
  otherBaseModelFile: (theirFile: string, ours: string) =>
    `This Voice’s base model was not recorded, but its files say it was trained on a model file named ${theirFile}, and this OwnVoice runs ${ours}. A Voice writes only on the model it was trained on, so it cannot wake here: create it again from your writing to use it on this model, or run OwnVoice on ${theirFile} (the OWNVOICE_BASE_MODEL setting) to wake it.`,
  /** Added to a refused wake. */
  notCharged: 'It was not woken, and nothing was charged.',
  /** The Voice page's notice for a Voice whose base was not recorded. */
  unknown: (ours: string | null) =>
    `The base model this Voice was trained on was not recorded: it was trained before OwnVoice kept that. It wakes on ${ours ?? 'this OwnVoice’s base model'}, most likely the one it was trained on; if it writes oddly, create it again from your writing.`,
  /** A package cannot be made for a Voice whose base was not recorded and whose files name another model. */
  notPackaged: (theirFile: string, ours: string) =>
    `This Voice’s base model was not recorded, and its files name a model file (${theirFile}) other than the one this OwnVoice runs (${ours}), so a package could not say which model it needs. Run OwnVoice on ${theirFile} to download it.`,
} as const;
