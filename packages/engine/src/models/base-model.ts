// Which base model the engine runs: OWNVOICE_BASE_MODEL names a local GGUF path, an hf: URI,
// an http(s) URL, or "tiny" (the house model shipped in the repo). The default is a small real
// instruct model, downloaded once into the data folder with node-llama-cpp's downloader
// (progress, resumable); where it cannot be fetched, the engine falls back to the house model
// and says why, so OwnVoice still runs offline.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createModelDownloader } from 'node-llama-cpp';
import { GgufError } from '../gguf/errors.js';
import { modelHparams } from '../gguf/model-spec.js';
import { readGguf } from '../gguf/reader.js';
import { HOUSE_MODEL_PATH } from '../house-model/paths.js';

export const DEFAULT_BASE_MODEL = 'hf:bartowski/SmolLM2-360M-Instruct-GGUF:Q8_0';

export interface DownloadProgress {
  downloadedBytes: number;
  totalBytes: number;
  percent: number;
}

export interface ResolvedBaseModel {
  path: string;
  /** Where it came from: the house model, a local file, or a download (now or earlier). */
  source: 'house' | 'local' | 'download';
  /** Set when the default could not be fetched and the house model stands in. */
  fallbackReason?: string;
}

export class BaseModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaseModelError';
  }
}

const isRemote = (spec: string) => /^(hf:|https?:\/\/)/i.test(spec);

/** Downloads a model into `dir` (resuming a partial download), or returns the file already there. */
export async function downloadModel(
  uri: string,
  dir: string,
  options: { onProgress?: (p: DownloadProgress) => void; signal?: AbortSignal } = {},
): Promise<string> {
  try {
    const downloader = await createModelDownloader({
      modelUri: uri,
      dirPath: dir,
      skipExisting: true,
      // Keep the partial file on cancel or failure, so the next attempt resumes it.
      deleteTempFileOnCancel: false,
      showCliProgress: false,
      ...(options.onProgress
        ? {
            onProgress: ({ totalSize, downloadedSize }: { totalSize: number; downloadedSize: number }) =>
              options.onProgress?.({
                downloadedBytes: downloadedSize,
                totalBytes: totalSize,
                percent: totalSize ? (100 * downloadedSize) / totalSize : 0,
              }),
          }
        : {}),
    });
    return await downloader.download(options.signal ? { signal: options.signal } : {});
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const reason = (error as Error).message || String(error);
    throw new BaseModelError(
      `Could not download the base model ${uri}: ${reason}. Check the internet connection, or set OWNVOICE_BASE_MODEL to a local .gguf file or "tiny".`,
    );
  }
}

/** Checks that a file is a model OwnVoice can run and train on; throws GgufError otherwise. */
export function checkModelFile(file: string): void {
  modelHparams(readGguf(file), file);
}

export async function resolveBaseModel(options: {
  /** OWNVOICE_BASE_MODEL; undefined means the default. */
  spec?: string | undefined;
  /** What an unset spec means (DEFAULT_BASE_MODEL; tests point it elsewhere). */
  defaultSpec?: string;
  dataDir: string;
  log?: (message: string) => void;
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
}): Promise<ResolvedBaseModel> {
  const log = options.log ?? (() => {});
  const spec = options.spec?.trim() || options.defaultSpec || DEFAULT_BASE_MODEL;
  const isDefault = !options.spec?.trim();

  if (spec === 'tiny') {
    checkModelFile(HOUSE_MODEL_PATH);
    return { path: HOUSE_MODEL_PATH, source: 'house' };
  }
  if (!isRemote(spec)) {
    const file = path.resolve(spec);
    if (!existsSync(file)) {
      throw new BaseModelError(`OWNVOICE_BASE_MODEL points to ${file}, which does not exist.`);
    }
    checkModelFile(file);
    return { path: file, source: 'local' };
  }
  const dir = path.join(options.dataDir, 'models');
  try {
    log(`fetching the base model ${spec} into ${dir} (once)`);
    const file = await downloadModel(spec, dir, {
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    checkModelFile(file);
    return { path: file, source: 'download' };
  } catch (error) {
    if (!isDefault || options.signal?.aborted) throw error;
    const reason = error instanceof BaseModelError || error instanceof GgufError ? error.message : String(error);
    log(`could not fetch the default base model; using the tiny house model instead. ${reason}`);
    checkModelFile(HOUSE_MODEL_PATH);
    return { path: HOUSE_MODEL_PATH, source: 'house', fallbackReason: reason };
  }
}
