// Unpacks an imported Voice package into a Voice's adapter folder, checking everything a model
// server will later read. It runs in a child process (voice-package-import.ts): a package is
// untrusted, and the API's event loop never waits on one.
//
//   1. the archive's end record: at most MAX_VOICE_PACKAGE_ENTRIES entries, counted before the
//      directory is read; every entry's declared size within the package limit;
//   2. manifest.json, at most 64 KB, by its schema; a package for another base model stops here;
//   3. voice.gguf, streamed to the folder (inflation stops at the declared size, CRC-32 checked),
//      its header read within an adapter's limits and every tensor checked against the base
//      model: F32, the shapes of the projections it targets, one rank, alpha above 0;
//   4. the PEFT weights, streamed the same way, their safetensors header checked: exactly the
//      adapter's tensors, F32, shapes times four bytes equal to byte ranges that tile the file;
//   5. the PEFT config, by its schema, agreeing with the GGUF adapter; stored as this server
//      writes one, not as the package had it.
import { createReadStream, createWriteStream } from 'node:fs';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import {
  MAX_VOICE_PACKAGE_BYTES,
  MAX_VOICE_PACKAGE_ENTRIES,
  MAX_VOICE_PACKAGE_TEXT_BYTES,
  peftAdapterConfigSchema,
  VOICE_PACKAGE_FILES,
  VOICE_PACKAGE_MESSAGES,
  type VoicePackageManifest,
  voicePackageManifestSchema,
} from '@ownvoice/shared';
import { peftConfig, peftModuleName, peftTensorName, writePeftConfig } from '../adapters/export.js';
import { checkSafetensors } from '../adapters/safetensors.js';
import { type AdapterInfo, type ModelHparams, readAdapter } from '../gguf/model-spec.js';
import { ExtractionLimitError } from '../text/limits.js';
import {
  centralDirectory,
  EOCD_BYTES,
  endOfCentralDirectory,
  entryDataStart,
  LOCAL_HEADER_BYTES,
  MAX_EOCD_SEARCH,
  type ZipEntry,
  ZipFormatError,
} from '../text/zip.js';

/** Why a file is not a Voice package this version reads; its message is the person's. */
export class VoicePackageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VoicePackageError';
  }
}

export interface UnpackJob {
  /** The package as received, on disk. */
  packagePath: string;
  /** The Voice's adapter folder, made here: the GGUF at its root, the PEFT export in peft/. */
  folder: string;
  ggufName: string;
  /** The base model this server runs: the adapter must fit it. */
  base: ModelHparams;
  baseSha256: string;
  /** The name the stored PEFT config gives the base model. */
  baseModelName: string;
}

export type UnpackReply =
  | { ok: true; manifest: VoicePackageManifest; adapter: Pick<AdapterInfo, 'rank' | 'alpha'> }
  /** The package is for another base model; nothing was unpacked. */
  | { ok: false; otherBase: VoicePackageManifest['baseModel'] }
  | { ok: false; message: string };

const notAPackage = (why?: string) =>
  new VoicePackageError(why ? `${VOICE_PACKAGE_MESSAGES.notAPackage} (${why})` : VOICE_PACKAGE_MESSAGES.notAPackage);

/** Unpacks and checks `job`'s package; answers why not, in the person's words, when it is not one. */
export async function unpackVoicePackage(job: UnpackJob): Promise<UnpackReply> {
  try {
    return await unpack(job);
  } catch (error) {
    if (error instanceof VoicePackageError) return { ok: false, message: error.message };
    if (error instanceof ExtractionLimitError) return { ok: false, message: VOICE_PACKAGE_MESSAGES.tooLarge };
    if (error instanceof ZipFormatError) return { ok: false, message: notAPackage().message };
    return { ok: false, message: notAPackage('it could not be read').message };
  }
}

async function unpack(job: UnpackJob): Promise<UnpackReply> {
  const archive = await open(job.packagePath, 'r');
  try {
    const entries = await readDirectory(archive);
    const entry = (name: string): ZipEntry => {
      const found = entries.get(name);
      if (!found) throw notAPackage(`${name} is missing`);
      if (found.flags & 1) throw notAPackage(`${name} is encrypted`);
      if (found.method !== 0 && found.method !== 8) throw notAPackage(`${name} uses an unsupported compression`);
      return found;
    };
    const read = (name: string, sink: Writable | null) => extract(archive, job.packagePath, name, entry(name), sink);

    const manifest = parseManifest(await read(VOICE_PACKAGE_FILES.manifest, null));
    if (manifest.baseModel.sha256 !== job.baseSha256) return { ok: false, otherBase: manifest.baseModel };
    const config = parsePeftConfig(await read(VOICE_PACKAGE_FILES.peftConfig, null));

    const peftDir = path.join(job.folder, 'peft');
    await mkdir(peftDir, { recursive: true, mode: 0o700 });
    const ggufPath = path.join(job.folder, job.ggufName);
    await read(VOICE_PACKAGE_FILES.gguf, createWriteStream(ggufPath, { mode: 0o600 }));
    const adapter = checkedAdapter(ggufPath, job.base);
    const weightsPath = path.join(peftDir, 'adapter_model.safetensors');
    await read(VOICE_PACKAGE_FILES.peftWeights, createWriteStream(weightsPath, { mode: 0o600 }));
    checkWeights(weightsPath, adapter);

    const targets = adapter.targets.map((t) => peftModuleName(t) as string);
    const agrees =
      config.r === adapter.rank &&
      config.lora_alpha === adapter.alpha &&
      manifest.training.rank === adapter.rank &&
      manifest.training.alpha === adapter.alpha &&
      sameSet(config.target_modules, targets);
    if (!agrees) throw notAPackage('its manifest, PEFT config and voice.gguf disagree on the adapter');
    writePeftConfig(peftDir, peftConfig({ rank: adapter.rank, alpha: adapter.alpha, targets }, job.baseModelName));
    return { ok: true, manifest, adapter: { rank: adapter.rank, alpha: adapter.alpha } };
  } finally {
    await archive.close();
  }
}

/** The central directory, found from the end record, whose entry count is checked first. */
async function readDirectory(archive: FileHandle): Promise<Map<string, ZipEntry>> {
  const { size } = await archive.stat();
  if (size > MAX_VOICE_PACKAGE_BYTES) throw new VoicePackageError(VOICE_PACKAGE_MESSAGES.tooLarge);
  if (size < EOCD_BYTES) throw notAPackage();
  const tailOffset = Math.max(0, size - MAX_EOCD_SEARCH);
  const tail = await readAt(archive, tailOffset, size - tailOffset);
  const limits = {
    entries: MAX_VOICE_PACKAGE_ENTRIES,
    entryBytes: MAX_VOICE_PACKAGE_BYTES,
    totalBytes: MAX_VOICE_PACKAGE_BYTES,
  };
  let located: ReturnType<typeof endOfCentralDirectory>;
  try {
    located = endOfCentralDirectory(tail, tailOffset, limits);
  } catch (error) {
    // A package has six files: an archive of many more is not one, however small they are.
    if (error instanceof ExtractionLimitError && /entries/.test(error.message)) {
      throw notAPackage(`it holds more than ${MAX_VOICE_PACKAGE_ENTRIES} files`);
    }
    throw error;
  }
  const dir = await readAt(archive, located.dirOffset, located.dirBytes);
  return centralDirectory(dir, located.count, limits);
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  if (bytesRead !== length) throw new ZipFormatError('truncated');
  return buffer;
}

/**
 * One entry's bytes into `sink` (a file), or into memory when `sink` is null (a text entry, at
 * most 64 KB). Inflation stops at the declared size, and the count and CRC-32 must match it.
 */
async function extract(
  archive: FileHandle,
  archivePath: string,
  name: string,
  entry: ZipEntry,
  sink: Writable | null,
): Promise<Buffer> {
  const limit = sink ? MAX_VOICE_PACKAGE_BYTES : MAX_VOICE_PACKAGE_TEXT_BYTES;
  if (entry.size > limit) throw notAPackage(`${name} is larger than a package's ${name} can be`);
  if (entry.method === 0 && entry.compressedSize !== entry.size) throw notAPackage(`${name} is damaged`);
  const start = entry.localHeader + entryDataStart(await readAt(archive, entry.localHeader, LOCAL_HEADER_BYTES), name);
  const damaged = notAPackage(`${name} is damaged`);
  const chunks: Buffer[] = [];
  let bytes = 0;
  let crc = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > entry.size) return done(damaged);
      crc = zlib.crc32(chunk, crc);
      if (!sink) chunks.push(chunk);
      done(null, chunk);
    },
  });
  const source =
    entry.compressedSize === 0
      ? PassThrough.from([])
      : createReadStream(archivePath, { start, end: start + entry.compressedSize - 1 });
  // An entry that inflates past its declared size fails in `check`, which ends the inflation.
  const stages = entry.method === 8 ? [source, zlib.createInflateRaw(), check] : [source, check];
  try {
    await pipeline([...stages, sink ?? new PassThrough().resume()] as unknown as [NodeJS.ReadableStream, Writable]);
  } catch {
    throw damaged;
  }
  if (bytes !== entry.size || crc >>> 0 !== entry.crc32 >>> 0) throw damaged;
  return Buffer.concat(chunks);
}

function parseManifest(raw: Buffer): VoicePackageManifest {
  const parsed = voicePackageManifestSchema.safeParse(parseJson(raw));
  if (!parsed.success) {
    throw notAPackage('its manifest.json is not one this OwnVoice reads: it may come from a newer version');
  }
  return parsed.data;
}

function parsePeftConfig(raw: Buffer) {
  const parsed = peftAdapterConfigSchema.safeParse(parseJson(raw));
  if (!parsed.success) throw notAPackage('its peft/adapter_config.json is not one OwnVoice writes');
  return parsed.data;
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}

function checkedAdapter(ggufPath: string, base: ModelHparams): AdapterInfo {
  try {
    return readAdapter(ggufPath, base, VOICE_PACKAGE_FILES.gguf);
  } catch (error) {
    throw notAPackage(`its voice.gguf does not fit the base model: ${(error as Error).message}`);
  }
}

/** The PEFT weights hold exactly the GGUF adapter's tensors, in torch's shapes. */
function checkWeights(weightsPath: string, adapter: AdapterInfo): void {
  const expected = new Map<string, number[]>();
  for (const t of adapter.tensors) {
    const peft = peftTensorName(t.name);
    // ggml's ne [cols, rows] is torch's (rows, cols).
    if (peft) expected.set(peft.name, [...t.dims].reverse());
  }
  try {
    checkSafetensors(weightsPath, expected);
  } catch (error) {
    throw notAPackage(`its ${VOICE_PACKAGE_FILES.peftWeights} does not hold the adapter: ${(error as Error).message}`);
  }
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  new Set(a).size === a.length && a.length === new Set(b).size && a.every((x) => b.includes(x));
