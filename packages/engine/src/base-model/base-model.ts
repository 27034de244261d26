// Which base model the engine runs: OWNVOICE_BASE_MODEL names a local GGUF path, an hf: URI,
// an http(s) URL, or "tiny" (the house model shipped in the repo). The default is a small real
// instruct model, downloaded once into the data folder with node-llama-cpp's downloader
// (progress, resumable); where it cannot be fetched, the engine falls back to the house model
// and says why, so OwnVoice still runs offline.
import { existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createModelDownloader } from 'node-llama-cpp';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { GgufError } from '../gguf/errors.js';
import { modelHparams } from '../gguf/model-spec.js';
import { readGguf } from '../gguf/reader.js';

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
  /** What was downloaded (`hf:owner/repo:quant` or a URL), for a download. */
  spec?: string;
}

export class BaseModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaseModelError';
  }
}

const isRemote = (spec: string) => /^(hf:|https?:\/\/)/i.test(spec);

// Finished downloads by URI, so a model fetched once is found again without asking the network
// (an hf: URI needs the network just to name its file).
const MANIFEST = 'downloads.json';
const readManifest = (dir: string): Record<string, string> => {
  try {
    return JSON.parse(readFileSync(path.join(dir, MANIFEST), 'utf8'));
  } catch {
    return {};
  }
};

const PROBE_TIMEOUT_MS = 8000;

/**
 * Answers quickly whether the model's host can be reached at all. The downloader retries a
 * dead host for minutes; offline, OwnVoice should say so (or fall back) at once.
 */
async function assertReachable(uri: string): Promise<void> {
  const url = uri.startsWith('hf:') ? 'https://huggingface.co/' : uri;
  try {
    await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new Error(`cannot reach ${new URL(url).host} (${why})`);
  }
}

/** Downloads a model into `dir` (resuming a partial download), or returns the file already there. */
export async function downloadModel(
  uri: string,
  dir: string,
  options: { onProgress?: (p: DownloadProgress) => void; signal?: AbortSignal } = {},
): Promise<string> {
  const known = readManifest(dir)[uri];
  if (known && existsSync(path.join(dir, known))) return path.join(dir, known);
  try {
    await assertReachable(uri);
    const downloader = await createModelDownloader({
      modelUri: uri,
      dirPath: dir,
      // ipull saves resumable progress only when it does not skip existing files; finished
      // files are found through the manifest above instead.
      skipExisting: false,
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
    const file = await downloader.download(options.signal ? { signal: options.signal } : {});
    // node-llama-cpp resolves even when the signal cancelled the transfer half way.
    options.signal?.throwIfAborted();
    exactSize(file, downloader.totalSize);
    writeFileSync(path.join(dir, MANIFEST), JSON.stringify({ ...readManifest(dir), [uri]: path.basename(file) }));
    return file;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const reason = (error as Error).message || String(error);
    throw new BaseModelError(
      `Could not download the base model ${uri}: ${reason}. Check the internet connection, or set OWNVOICE_BASE_MODEL to a local .gguf file or "tiny".`,
    );
  }
}

/**
 * Makes a finished download exactly `size` bytes. ipull (node-llama-cpp's downloader) saves its
 * resumable progress after the file's content and cuts it off when the download ends, but each
 * save is started without waiting for it (ipull 3.9.5, download-engine-file.js `void
 * this._saveProgress()`), so a save already under way can write after the final cut
 * (download-engine-nodejs.js `ftruncate(downloadSize)`). A loaded machine caught it in a test: the
 * model file had bytes past its end. A file shorter than the size is an incomplete download.
 */
export function exactSize(file: string, size: number): void {
  if (size <= 0) return; // the server gave no length: nothing to hold the file to
  const { size: onDisk } = statSync(file);
  if (onDisk < size) throw new Error(`the download ended at ${onDisk} of ${size} bytes; try again to resume it`);
  if (onDisk > size) truncateSync(file, size);
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
    return { path: file, source: 'download', spec };
  } catch (error) {
    if (!isDefault || options.signal?.aborted) throw error;
    const reason = error instanceof BaseModelError || error instanceof GgufError ? error.message : String(error);
    log(`could not fetch the default base model; using the tiny house model instead. ${reason}`);
    checkModelFile(HOUSE_MODEL_PATH);
    return { path: HOUSE_MODEL_PATH, source: 'house', fallbackReason: reason };
  }
}
