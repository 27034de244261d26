// The Voice package `train` writes beside its adapter: the .zip a Voice's page downloads, so a
// Voice trained on the command line imports into any OwnVoice that runs the same base model.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { baseModelIdentity, type ResolvedBaseModel } from '../base-model/base-model.js';
import { ENGINE_DIR } from '../package-dir.js';
import type { TrainedVoice } from '../voice/train-voice.js';
import { buildVoicePackage, manifestBase, voicePackageManifest } from '../voice/voice-package.js';
import { TRAINED_PACKAGE } from './usage.js';

/** The engine's version, from its package.json (cli/ may not import the index's ENGINE_VERSION). */
const engineVersion = (): string =>
  (JSON.parse(readFileSync(path.join(ENGINE_DIR, 'package.json'), 'utf8')) as { version: string }).version;

/** Writes the trained Voice's package into `outDir`, as the server's download writes one; answers its path. */
export async function writeTrainedPackage(
  voice: TrainedVoice,
  options: { outDir: string; name: string; resolved: ResolvedBaseModel; preset: string },
): Promise<string> {
  const manifest = await voicePackageManifest({
    name: options.name,
    characters: voice.characters,
    trainedAt: new Date(),
    baseModel: manifestBase(await baseModelIdentity(options.resolved)),
    peftDir: voice.peftDir,
    preset: options.preset,
    evaluation: voice.evaluation,
    exportedBy: { app: 'OwnVoice', version: engineVersion() },
  });
  const file = path.join(options.outDir, TRAINED_PACKAGE);
  writeFileSync(file, await buildVoicePackage(manifest, { ggufPath: voice.adapterPath, peftDir: voice.peftDir }));
  return file;
}
