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
