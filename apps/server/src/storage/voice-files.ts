// Where a Voice's files lie in the artifact storage: one folder per Voice, named by its id,
// holding the uploaded writing until its training ends, the trainer's work (checkpoints, which
// let another worker resume) and the adapter the Voice keeps. Services, workers and tests all
// take the layout from here.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { UploadedFile } from '@ownvoice/engine';
import { z } from 'zod';
import type { ArtifactStorage } from './artifact-storage.js';

export const voiceFolder = (voiceId: string): string => `voices/${voiceId}`;
/** The uploaded writing, kept until the training finishes. */
export const uploadsKey = (voiceId: string): string => `${voiceFolder(voiceId)}/uploads`;
/** The trainer's work folder: paraphrases and checkpoints, removed once the Voice is trained. */
export const workKey = (voiceId: string): string => `${voiceFolder(voiceId)}/work`;
/** The trained adapter (GGUF and PEFT export); the only part a ready Voice keeps. */
export const adapterFolderKey = (voiceId: string): string => `${voiceFolder(voiceId)}/adapter`;

/**
 * Copies what a fork of `source` needs into the fork's folder: the adapter and, beside it, its
 * PEFT export (what a vLLM endpoint loads). Nothing else: the evaluation beside them quotes the
 * source's training writing, which stays its owner's. Answers the fork's adapter key.
 */
export async function copyForFork(
  storage: ArtifactStorage,
  source: { id: string; adapterKey: string },
  forkId: string,
): Promise<string> {
  const from = voiceFolder(source.id);
  if (!source.adapterKey.startsWith(`${from}/`))
    throw new Error(`adapter ${source.adapterKey} is outside its Voice's folder`);
  const adapterKey = `${voiceFolder(forkId)}${source.adapterKey.slice(from.length)}`;
  await storage.copy(source.adapterKey, adapterKey);
  const peft = `${path.posix.dirname(source.adapterKey)}/${PEFT_FOLDER}`;
  if (await storage.exists(peft)) await storage.copy(peft, `${path.posix.dirname(adapterKey)}/${PEFT_FOLDER}`);
  return adapterKey;
}

/** The PEFT export's folder, beside the GGUF adapter (the engine's trainVoice writes both). */
export const PEFT_FOLDER = 'peft';
/** The evaluation the engine writes beside the adapter; its samples quote the training writing. */
export const EVALUATION_FILE = 'evaluation.json';

/**
 * The base model file a Voice's PEFT export names (its `base_model_name_or_path`, the file's name
 * without .gguf, written at training), with .gguf; null when there is none to read. What a Voice
 * trained before its base model was recorded can still say of it (decision 31).
 */
export async function peftBaseModelFile(storage: ArtifactStorage, adapterKey: string): Promise<string | null> {
  const config = storage.localPath(`${path.posix.dirname(adapterKey)}/${PEFT_FOLDER}/adapter_config.json`);
  try {
    const name = (JSON.parse(await readFile(config, 'utf8')) as { base_model_name_or_path?: unknown })
      .base_model_name_or_path;
    if (typeof name !== 'string' || !/^[\w.-]{1,200}$/.test(name)) return null;
    return /\.gguf$/i.test(name) ? name : `${name}.gguf`;
  } catch {
    return null;
  }
}

/** Removes what forks copied before they took only the adapter (copyForFork): their source's evaluation. */
export async function tidyForkedFiles(storage: ArtifactStorage, forks: { adapterKey: string | null }[]): Promise<void> {
  for (const { adapterKey } of forks) {
    if (adapterKey) await storage.remove(`${path.posix.dirname(adapterKey)}/${EVALUATION_FILE}`);
  }
}

export const UPLOAD_MANIFEST = 'manifest.json';
export const PASTED_TEXT_FILE = 'pasted.txt';

/**
 * The manifest maps the files on disk to the names the person gave them. It is read back by a
 * worker, possibly another process on another machine, so it is checked rather than trusted: a
 * file must be a plain name inside the uploads folder.
 */
const uploadManifestSchema = z.array(
  z.object({
    file: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
    name: z.string(),
  }),
);
export type UploadManifestEntry = z.infer<typeof uploadManifestSchema>[number];

/**
 * Moves an upload's folder (`files` point into it) into the Voice's folder, with the manifest and
 * the pasted text beside the files. The local folder is gone afterwards when this succeeds.
 */
export async function storeUploads(
  storage: ArtifactStorage,
  voiceId: string,
  uploadDir: string,
  files: readonly { name: string; path: string }[],
  pastedText: string,
): Promise<void> {
  const manifest: UploadManifestEntry[] = files.map((f) => ({ file: path.basename(f.path), name: f.name }));
  await writeFile(path.join(uploadDir, UPLOAD_MANIFEST), JSON.stringify(manifest));
  if (pastedText.trim()) await writeFile(path.join(uploadDir, PASTED_TEXT_FILE), pastedText);
  await storage.importFolder(uploadDir, uploadsKey(voiceId));
}

/** The writing a Voice trains on, as stored by storeUploads. */
export async function readUploads(
  storage: ArtifactStorage,
  voiceId: string,
): Promise<{ files: UploadedFile[]; pastedText: string | undefined }> {
  const dir = storage.localPath(uploadsKey(voiceId));
  let manifest: UploadManifestEntry[];
  try {
    manifest = uploadManifestSchema.parse(JSON.parse(await readFile(path.join(dir, UPLOAD_MANIFEST), 'utf8')));
  } catch (error) {
    throw new Error('The uploaded writing could not be read back.', { cause: error });
  }
  const files: UploadedFile[] = [];
  for (const entry of manifest) {
    files.push({ name: entry.name, data: await readFile(path.join(dir, entry.file)) });
  }
  const pastedPath = path.join(dir, PASTED_TEXT_FILE);
  return { files, pastedText: existsSync(pastedPath) ? await readFile(pastedPath, 'utf8') : undefined };
}
